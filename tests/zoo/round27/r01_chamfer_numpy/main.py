"""
expect: GL002 chamfer.py:28
dynamic: confirm
source: https://github.com/fwilliams/point-cloud-utils/issues/78

A user wanted the Chamfer distance as the training loss of a point-cloud
model, but the nearest-neighbour library only accepts numpy arrays, so the
loss was computed in numpy and had no gradient. Here the loss object in
chamfer.py pulls the predicted points out with .numpy(), computes the
distance, and rebuilds a fresh leaf with torch.tensor(..., requires_grad=True)
so backward() runs. The asserts show the decoder gets no gradient and its
weights never move, while the same loop with a torch chamfer trains.
"""
import copy

import torch
import torch.nn as nn

from chamfer import NumpyChamfer, torch_chamfer

torch.manual_seed(0)
torch.set_num_threads(1)


class PointDecoder(nn.Module):
    def __init__(self, latent=16, n_points=64):
        super().__init__()
        self.n_points = n_points
        self.net = nn.Sequential(nn.Linear(latent, 64), nn.ReLU(), nn.Linear(64, n_points * 3))

    def forward(self, z):
        return self.net(z).view(z.shape[0], self.n_points, 3)


def train(model, loss_fn, z, target, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(z), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


z = torch.randn(4, 16)
target = torch.rand(4, 64, 3)
model = PointDecoder()
ref = copy.deepcopy(model)
before = [p.detach().clone() for p in model.parameters()]

train(model, NumpyChamfer(), z, target)

# the numpy loss never reaches the decoder
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, p) for a, p in zip(before, model.parameters()))

# the same loop with a differentiable chamfer does train
ref_losses = train(ref, torch_chamfer, z, target)
assert all(p.grad is not None for p in ref.parameters())
assert ref_losses[-1] < ref_losses[0]
print("ok: numpy chamfer leaves decoder untouched; torch chamfer", ref_losses[0], "->", ref_losses[-1])
