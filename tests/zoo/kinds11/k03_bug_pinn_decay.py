"""
expect: GL002 38
dynamic: confirm
source: kinds check 11, kind 3

A physics-informed network u(t) for radioactive decay, du/dt = -k u, fitted to a
few noisy measurements. For each collocation time the residual du/dt + k u is
obtained with torch.autograd.grad(..., create_graph=True), squared, and appended
to a list. The list is then turned into a tensor with torch.tensor(list), which
copies the numbers and drops their autograd history, so the physics term has
requires_grad=False. Added to the attached data loss it contributes nothing:
the parameter gradients of data + physics are identical to those of the data
loss alone, although the physics residual is clearly non-zero. The rebuild with
torch.tensor is the mistake.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad")


def main():
    torch.manual_seed(4)
    k = 1.5
    net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
    t_obs = torch.tensor([[0.0], [0.5], [1.0]])
    u_obs = torch.exp(-k * t_obs) + 0.01 * torch.randn_like(t_obs)
    colloc = torch.linspace(0.0, 2.0, 12)

    residuals = []
    for t in colloc:
        t = t.reshape(1, 1).requires_grad_(True)
        u = net(t)
        du_dt, = torch.autograd.grad(u.sum(), t, create_graph=True)
        residuals.append((du_dt + k * u).pow(2).squeeze())
    physics = torch.tensor(residuals).mean()

    data = (net(t_obs) - u_obs).pow(2).mean()
    loss = data + physics
    assert physics.item() > 1e-4 and not physics.requires_grad

    params = list(net.parameters())
    g_total = torch.autograd.grad(loss, params, retain_graph=True)
    g_data = torch.autograd.grad(data, params)
    for a, b in zip(g_total, g_data):
        assert torch.equal(a, b), "physics term changed a gradient"
    print("k03 bug: physics residual %.4f added no gradient" % physics.item())


if __name__ == "__main__":
    main()
