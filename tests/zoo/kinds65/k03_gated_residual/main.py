"""
expect: GL005 layers.py:27
dynamic: confirm
source: none, invented

A tabular regressor built from gated residual blocks. In the block's forward the skip branch is either a
scaled copy of the tanh features (a new tensor) or, when no scale is configured, the very same `support`
tensor. That tensor was already saved for backward by tanh (its output) and by the gate multiplication,
and the skip branch then adds the bias in place. On the scaled arm this is harmless; on the unscaled arm
it bumps the version of a saved tensor, so backward fails. The asserts build the block both ways: the
scaled block trains, the unscaled block raises the "modified by an inplace operation" RuntimeError, and
the fixed block (out-of-place add) trains with the unscaled skip.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import GatedResidualBlock


def make_model(skip_scale, fixed=False):
    return nn.Sequential(nn.Linear(6, 16), GatedResidualBlock(16, skip_scale, fixed), nn.Linear(16, 1))


def fit(model, x, y, steps=30):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    x = torch.randn(128, 6)
    y = x[:, :2].prod(1, keepdim=True) + 0.1 * torch.randn(128, 1)

    scaled = fit(make_model(0.5), x, y)
    assert scaled[-1] < scaled[0]

    failed = False
    try:
        fit(make_model(None), x, y)
    except RuntimeError as err:
        failed = "modified by an inplace operation" in str(err)
    assert failed

    fixed = make_model(None, fixed=True)
    block = fixed[1]
    before = block.bias.detach().clone()
    losses = fit(fixed, x, y)
    assert losses[-1] < losses[0]
    assert not torch.equal(before, block.bias.detach())
    print("scaled %.4f, fixed %.4f" % (scaled[-1], losses[-1]))


if __name__ == "__main__":
    main()
