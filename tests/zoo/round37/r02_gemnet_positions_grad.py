"""
expect: none
dynamic: dismiss
source: https://github.com/TUM-DAML/gemnet_pytorch/issues/6

A GemNet user asked why the model sets requires_grad = True on the atom positions
when it does not predict forces directly. The answer: forces are -dE/dR, so the
positions must be tracked. The positions are a fresh data leaf that never had
history, the flag is set before the forward pass, and the force loss is built with
create_graph=True, so it does train the network. The asserts check that the force
term alone gives the energy head a nonzero gradient and that training lowers it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyGemNet(nn.Module):
    def __init__(self, direct_forces=False):
        super().__init__()
        self.direct_forces = direct_forces
        self.edge_mlp = nn.Sequential(nn.Linear(1, 32), nn.SiLU(), nn.Linear(32, 1))
        self.force_head = nn.Linear(3, 3)

    def forward(self, inputs):
        R = inputs["R"]
        if not self.direct_forces:
            R.requires_grad = True
        diff = R[:, None, :] - R[None, :, :]
        mask = ~torch.eye(R.shape[0], dtype=torch.bool)
        dist = diff[mask].norm(dim=-1, keepdim=True)
        E = self.edge_mlp(dist).sum()
        if self.direct_forces:
            F = self.force_head(R)
        else:
            F = -torch.autograd.grad(E, R, create_graph=True)[0]
        return E, F


def make_batch():
    return {"R": torch.rand(5, 3) * 2.0}


model = TinyGemNet()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
f_ref = torch.randn(5, 3) * 0.1
fixed_R = torch.rand(5, 3) * 2.0

# the force term alone reaches the energy MLP
E, F = model({"R": fixed_R.clone()})
f_loss = ((F - f_ref) ** 2).mean()
f_loss.backward()
g = model.edge_mlp[0].weight.grad
assert g is not None and g.abs().sum() > 0
model.zero_grad()

first = None
for step in range(60):
    opt.zero_grad()
    E, F = model({"R": fixed_R.clone()})
    loss = ((F - f_ref) ** 2).mean()
    loss.backward()
    opt.step()
    if first is None:
        first = loss.item()
assert loss.item() < first, (first, loss.item())
print("ok: requires_grad on fresh positions trains the energy net through forces")
