"""
expect: none
dynamic: dismiss
source: kind 8

A physics-informed network fits the damped oscillator u'' + 0.4 u' + 4 u = 0 with u(0)=1,
u'(0)=0, using autograd for the time derivatives. With the record_history option on, a copy
of the loss value is made with torch.tensor(loss.item()) and stored under another name for
logging only; the original residual loss is what is backpropagated, so the network's weights
change and the logged values are plain numbers without history.
"""
import torch
import torch.nn as nn


class Oscillator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, t):
        return self.net(t)


def physics_loss(model, t):
    t = t.clone().requires_grad_()
    u = model(t)
    (du,) = torch.autograd.grad(u.sum(), t, create_graph=True)
    (ddu,) = torch.autograd.grad(du.sum(), t, create_graph=True)
    residual = ddu + 0.4 * du + 4.0 * u
    t0 = torch.zeros(1, 1, requires_grad=True)
    u0 = model(t0)
    (du0,) = torch.autograd.grad(u0.sum(), t0, create_graph=True)
    return residual.pow(2).mean() + (u0 - 1).pow(2).mean() + du0.pow(2).mean()


def main(record_history=True):
    torch.manual_seed(0)
    model = Oscillator()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    t = torch.linspace(0, 3, 64)[:, None]
    before = model.net[0].weight.clone()
    history = {"residual_log": []}
    for _ in range(5):
        loss = physics_loss(model, t)
        if record_history:
            snapshot = torch.tensor(loss.item())
            history["residual_log"].append(snapshot)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert not torch.equal(model.net[0].weight, before)
    assert all(not v.requires_grad for v in history["residual_log"])
    print("ok: network trained; logged", [round(v.item(), 4) for v in history["residual_log"]])


if __name__ == "__main__":
    main()
