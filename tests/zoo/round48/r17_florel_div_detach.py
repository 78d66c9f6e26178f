"""
expect: GL001 56
dynamic: confirm
source: https://github.com/nirbhay-design/ODE-SSL/blob/2e80b497186b8004a12c61ea460e9eedd935dace/src/ssl/ode_ssl.py

A flow-based projection head for self-supervised features: an encoder output x is carried through a
neural ODE dz/dt = f(t, z) together with the running log-density -int tr(df/dz) dt, the trace
estimated with Hutchinson probes, so the head returns a representation and a log-probability. The
dynamics function makes its own differentiable copy of the state with z.clone().detach()
.requires_grad_(True) so that it can take the vector-Jacobian product for the trace. That copy
cuts every dynamics evaluation off from the state it was given: the integrated representation is
x plus terms that depend only on the ODE weights, and the log-density term is not connected to the
encoder at all. The asserts show that the encoder receives no gradient from the divergence
integral, that d(representation)/dx is exactly the identity (the flow is invisible to the
encoder), and that taking the vector-Jacobian product on the state itself (enable_grad, no detach)
gives the encoder a gradient from the log-density and a non-identity Jacobian.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Dynamics(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))

    def forward(self, t, z):
        tt = torch.full((z.shape[0], 1), float(t))
        return self.net(torch.cat([z, tt], dim=-1))


def rk4(func, y0, t_grid):
    y = y0
    for t0, t1 in zip(t_grid[:-1], t_grid[1:]):
        h = t1 - t0
        k1 = func(t0, y)
        k2 = func(t0 + h / 2, y + h / 2 * k1)
        k3 = func(t0 + h / 2, y + h / 2 * k2)
        k4 = func(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


class FlowHead(nn.Module):
    def __init__(self, dim, steps=6, probes=2):
        super().__init__()
        self.f = Dynamics(dim)
        self.t_grid = torch.linspace(0.0, 1.0, steps).tolist()
        self.probes = probes

    def divergence(self, t, z):
        e = torch.randint(0, 2, z.shape).float() * 2 - 1
        z = z.clone().detach().requires_grad_(True)
        f = self.f(t, z)
        vjp = torch.autograd.grad((f * e).sum(), z, create_graph=True)[0]
        return f, (vjp * e).sum(dim=-1)

    def augmented(self, t, state):
        z = state[:, :-1]
        div = torch.zeros(z.shape[0])
        for _ in range(self.probes):
            f, d = self.divergence(t, z)
            div = div + d
        return torch.cat([f, -(div / self.probes).unsqueeze(1)], dim=-1)

    def forward(self, x):
        state = torch.cat([x, torch.zeros(x.shape[0], 1)], dim=-1)
        out = rk4(self.augmented, state, self.t_grid)
        rep, delta_logp = out[:, :-1], out[:, -1]
        return rep, -0.5 * rep.pow(2).sum(-1) + delta_logp, delta_logp


class FlowHeadOnState(FlowHead):
    def divergence(self, t, z):
        e = torch.randint(0, 2, z.shape).float() * 2 - 1
        with torch.enable_grad():
            if not z.requires_grad:
                z = z.detach().requires_grad_(True)
            f = self.f(t, z)
            vjp = torch.autograd.grad((f * e).sum(), z, create_graph=True)[0]
        return f, (vjp * e).sum(dim=-1)


dim = 4
encoder = nn.Linear(8, dim)
head = FlowHead(dim)
head_fix = FlowHeadOnState(dim)
head_fix.load_state_dict(head.state_dict())
x_in = torch.randn(16, 8)
enc_params = list(encoder.parameters())

# 1) the divergence integral never reaches the encoder
_, _, dlogp = head(encoder(x_in))
g = torch.autograd.grad(dlogp.sum(), enc_params, allow_unused=True)
assert all(gi is None or gi.abs().sum() == 0 for gi in g)
_, _, dlogp_fix = head_fix(encoder(x_in))
g_fix = torch.autograd.grad(dlogp_fix.sum(), enc_params, allow_unused=True)
assert all(gi is not None and gi.abs().sum() > 0 for gi in g_fix)

# 2) the flow is invisible to the encoder: d rep / d x is the identity
x0 = encoder(x_in[:1]).detach()
J = torch.autograd.functional.jacobian(lambda v: head(v)[0], x0).reshape(dim, dim)
J_fix = torch.autograd.functional.jacobian(lambda v: head_fix(v)[0], x0).reshape(dim, dim)
assert torch.allclose(J, torch.eye(dim))
assert not torch.allclose(J_fix, torch.eye(dim), atol=1e-3)

# 3) the ODE weights still get gradients, which is why training "runs"
_, logp, _ = head(encoder(x_in))
(-logp.mean()).backward()
assert all(p.grad is not None for p in head.parameters())
print(f"encoder grad norm from the log-det term: as written 0, on the state "
      f"{sum(gi.norm() for gi in g_fix).item():.4f}; |J - I| on the state "
      f"{(J_fix - torch.eye(dim)).abs().max().item():.4f}")
