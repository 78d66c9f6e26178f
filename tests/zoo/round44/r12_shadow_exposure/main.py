"""
expect: GL002 stage1.py:33, GL003 stage1.py:35
dynamic: confirm
source: https://github.com/VHaardt/GL-OBI_Shadow-Removal/blob/1b259377a842616d1b9d43c8cd7bda50b87f1bbb/train.py

Shadow removal as exposure correction: a small CNN predicts per-channel gain and offset for the
shadow region, and the predicted parameters are applied to the shadow image. The trainer reads each
predicted parameter with .item(), applies the exposure in NumPy, and rebuilds the corrected batch
with torch.tensor(...), so the loss no longer depends on the CNN. The backward error this causes was
silenced by setting loss_p.requires_grad = True, after which backward() only reaches the new leaf:
the CNN's parameters keep grad None and Adam never moves them, while the loss stays flat. The asserts
check exactly that, and then train the same CNN with the differentiable torch exposure, which gives
non-zero gradients and a falling loss.
"""
import torch
import torch.nn.functional as F

from exposure import exposure_rgb_tensor
from stage1 import ParamNet, train_param_step

torch.manual_seed(0)
torch.set_num_threads(1)

B, H, W = 4, 8, 8
gt = 0.3 + 0.6 * torch.rand(B, 3, H, W)
mask = torch.zeros(B, 1, H, W)
mask[:, :, 2:6, 2:6] = 1.0
gain = torch.tensor([0.5, 0.6, 0.55]).view(1, 3, 1, 1)
inp = gt * (1 - mask) + gt * gain * mask

# buggy trainer: numbers go through NumPy and come back as a fresh tensor
net = ParamNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
start = [p.detach().clone() for p in net.parameters()]
losses = [train_param_step(net, opt, inp, gt, mask) for _ in range(20)]
assert all(p.grad is None for p in net.parameters())
assert all(torch.equal(a, b) for a, b in zip(start, net.parameters()))
assert max(losses) - min(losses) < 1e-7, losses

# intended trainer: the exposure stays inside the graph
net2 = ParamNet()
opt2 = torch.optim.Adam(net2.parameters(), lr=1e-2)
good = []
for _ in range(60):
    opt2.zero_grad()
    out = exposure_rgb_tensor(inp, net2(inp))
    loss = F.mse_loss(out * mask, gt * mask)
    loss.backward()
    assert net2.head.bias.grad is not None and net2.head.bias.grad.abs().sum() > 0
    opt2.step()
    good.append(loss.item())
assert good[-1] < 0.5 * good[0], (good[0], good[-1])
print(f"rebuilt loss stuck at {losses[-1]:.4f}; differentiable exposure {good[0]:.4f} -> {good[-1]:.4f}")
