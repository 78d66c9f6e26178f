"""
expect: GL001 flow_estimator.py:6
dynamic: confirm
source: https://github.com/sniklaus/pytorch-pwc/issues/27

Optical flow: a user imports the `estimate` helper of a PWC-Net inference script to use
the flow network inside their own training and fine-tunes it with an MSE loss on ground
truth flow. The script calls `torch.set_grad_enabled(False)` at module level "for
performance", so merely importing it switches autograd off for the whole process: the
predicted flow has no grad_fn, and loss.backward() fails with "element 0 of tensors does
not require grad" (in the report, even the plain PyTorch tutorial code failed after the
import). The asserts show grad mode is off after the import and catch that error on the
default training step; the fixed loop re-enables gradients around the training forward
pass, and the end-point error then drops.
"""
import torch
import torch.nn.functional as F

from flow_estimator import estimate, netNetwork

torch.manual_seed(0)
torch.set_num_threads(1)


def make_pair(b=4, h=32, w=32):
    first = torch.rand(b, 3, h, w)
    flow = torch.zeros(b, 2, h, w)
    flow[:, 0] = 1.0                       # one pixel to the right
    second = torch.roll(first, shifts=1, dims=3)
    return first, second, flow


optimizer = torch.optim.Adam(netNetwork.parameters(), lr=1e-3)


def train_step(first, second, flow_gt):
    netNetwork.train()
    optimizer.zero_grad()
    pred_flow = estimate(first, second)
    op_loss = F.mse_loss(pred_flow, flow_gt)
    op_loss.backward()
    optimizer.step()
    return op_loss.item()


assert not torch.is_grad_enabled()
first, second, flow_gt = make_pair()
try:
    train_step(first, second, flow_gt)
    raise AssertionError("expected backward to fail")
except RuntimeError as err:
    assert "does not require grad" in str(err), err
    print("training through estimate() raised:", str(err)[:70])

# fixed: gradients are switched back on for the training forward pass
epe = []
for it in range(80):
    first, second, flow_gt = make_pair()
    with torch.enable_grad():
        train_step(first, second, flow_gt)
    with torch.no_grad():
        pred = estimate(first, second)
        epe.append((pred - flow_gt).norm(dim=1).mean().item())
print(f"EPE {epe[0]:.3f} -> {epe[-1]:.3f}")
assert epe[-1] < 0.5 * epe[0]
