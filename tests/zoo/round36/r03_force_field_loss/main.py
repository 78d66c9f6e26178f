"""
expect: none
dynamic: dismiss
source: https://github.com/mir-group/nequip/pull/1

An interatomic-potential trainer (energy model, forces as minus the gradient
of the energy with create_graph) computes a weighted energy+force loss; the
PR detaches every per-term loss value that is saved for logging. That detach
is on purpose and harmless: the returned total keeps its graph. The asserts
show both terms train the model (the force coefficient changes the
gradients), the logged copies carry no graph, and the loss goes down.
"""
import torch
import torch.nn as nn

from loss import WeightedEnergyForceLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class PairPotential(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, pos):
        diff = pos.unsqueeze(1) - pos.unsqueeze(0)
        n = pos.shape[0]
        iu = torch.triu_indices(n, n, offset=1)
        r = diff[iu[0], iu[1]].norm(dim=-1, keepdim=True)
        energy = self.net(r).sum()
        forces = -torch.autograd.grad(energy, pos, create_graph=True)[0]
        return {"energy": energy, "forces": forces}


def make_frame():
    pos = torch.randn(5, 3)
    ref_e = torch.tensor(0.3)
    ref_f = 0.1 * torch.randn(5, 3)
    return pos, {"energy": ref_e, "forces": ref_f}


model = PairPotential()
frames = [make_frame() for _ in range(4)]


def grads_with(coeffs):
    model.zero_grad()
    pos, ref = frames[0]
    pred = model(pos.clone().requires_grad_(True))
    total, _ = WeightedEnergyForceLoss(coeffs)(pred, ref)
    total.backward()
    return model.net[0].weight.grad.clone()


g_a = grads_with({"energy": 1.0, "forces": 1.0})
g_b = grads_with({"energy": 1.0, "forces": 100.0})
assert not torch.allclose(g_a, g_b)  # the force term reaches the weights

loss_fn = WeightedEnergyForceLoss({"energy": 1.0, "forces": 10.0})
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for epoch in range(30):
    epoch_total = 0.0
    for pos, ref in frames:
        pred = model(pos.clone().requires_grad_(True))
        total, contrib = loss_fn(pred, ref)
        opt.zero_grad()
        total.backward()
        opt.step()
        assert all(v.grad_fn is None and not v.requires_grad for v in contrib.values())
        epoch_total += total.item()
    history.append(epoch_total)

assert history[-1] < history[0]
print("ok", history[0], history[-1])
