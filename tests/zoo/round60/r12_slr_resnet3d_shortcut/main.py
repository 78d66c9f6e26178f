"""
expect: GL001 resnet3d.py:15
dynamic: confirm
source: https://github.com/0aqz0/SLR/blob/a1fc68b0ab4f3198efe767bc99745b9d31a13b0c/models/Conv3D.py#L198

The sign-language-recognition repository trains a 3D ResNet-18 on video clips
with the parameter-free shortcut 'A'. Where a stage halves the resolution and
doubles the channels, the shortcut average-pools the input and pads it with
zero channels, but it builds the result from `out.data` wrapped in a new
Variable. That cuts the identity path out of the graph: the forward value is
right, yet no gradient goes back through the shortcut of any downsampling block,
so everything before such a block is trained only through the residual branches.
The program reproduces the block in resnet3d.py. With the common zero-init of
the last BatchNorm of each residual branch, the stem then receives an all-zero
gradient and does not move in the first update, while the same model with the
shortcut kept in the graph updates it; without zero-init the stem gradient is
still different from the true one because the shortcut share is missing.
"""
import torch
import torch.nn.functional as F

from resnet3d import ResNet3D

torch.manual_seed(0)
torch.set_num_threads(1)

clips = torch.randn(4, 3, 4, 8, 8)          # (batch, rgb, frames, h, w)
labels = torch.tensor([0, 1, 2, 3])


def train(keep_graph, zero_init, steps=5):
    torch.manual_seed(1)
    model = ResNet3D(keep_graph=keep_graph, zero_init_residual=zero_init)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    stem_before = model.stem.weight.detach().clone()
    first_grad = None
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(clips), labels)
        loss.backward()
        if first_grad is None:
            first_grad = model.stem.weight.grad.detach().clone()
        opt.step()
    moved = (model.stem.weight.detach() - stem_before).abs().max().item()
    return first_grad, moved


grad_bug, moved_bug = train(keep_graph=False, zero_init=True, steps=1)
grad_fix, moved_fix = train(keep_graph=True, zero_init=True, steps=1)
assert torch.count_nonzero(grad_bug) == 0, "stem should get no gradient through the cut shortcut"
assert moved_bug == 0.0
assert grad_fix.abs().sum() > 0 and moved_fix > 0
print(f"zero-init residual: stem moved {moved_bug:.2e} (cut shortcut) vs {moved_fix:.2e} (kept)")

g_bug, _ = train(keep_graph=False, zero_init=False, steps=1)
g_fix, _ = train(keep_graph=True, zero_init=False, steps=1)
assert not torch.allclose(g_bug, g_fix, atol=1e-6)
print(f"default init: stem grad differs by {(g_bug - g_fix).abs().max():.2e}")
