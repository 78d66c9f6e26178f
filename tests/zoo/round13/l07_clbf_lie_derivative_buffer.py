"""
expect: none
dynamic: dismiss
source: https://github.com/MIT-REALM/neural_clbf/pull/10

The PR "Fixing Inplace Error that Made Weird Autograd Errors" rewrote in-place operations in the
neural CLBF controller; the maintainer could not reproduce the error and asked which operation
was at fault. One pattern in that code is harmless: V_lie_derivatives() allocates zero buffers
and fills them per scenario with `Lf_V[:, i, :] = ...` and `Lg_V[:, i, :] = ...`, and no recorded
op has saved those buffers when they are written. This program rebuilds a learned Lyapunov
function for an inverted pendulum with two mass scenarios and trains it on the CLF descent
loss. The asserts show the slice-filled Lie derivatives give the same gradients as a
torch.stack version and that the descent-violation loss falls.
"""
import torch
import torch.nn as nn


class InvertedPendulum:
    n_dims, n_controls = 2, 1

    def control_affine_dynamics(self, x, params):
        m, L, g, b = params["m"], 1.0, 9.81, 0.01
        theta, theta_dot = x[:, 0], x[:, 1]
        f = torch.stack([theta_dot, g / L * torch.sin(theta) - b / (m * L ** 2) * theta_dot], dim=1)
        g_mat = torch.zeros(x.shape[0], 2, 1)
        g_mat[:, 1, 0] = 1.0 / (m * L ** 2)
        return f.unsqueeze(-1), g_mat


class NeuralCLF(nn.Module):
    def __init__(self, system, scenarios):
        super().__init__()
        self.system, self.scenarios = system, scenarios
        self.V_nn = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.u_nn = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))

    def V_with_jacobian(self, x):
        x = x if x.requires_grad else x.clone().requires_grad_(True)
        phi = self.V_nn(x)
        V = 0.5 * (phi ** 2).sum(1)
        JV = torch.autograd.grad(V.sum(), x, create_graph=True)[0].unsqueeze(1)
        return V, JV

    def V_lie_derivatives(self, x, stacked=False):
        _, gradV = self.V_with_jacobian(x)
        n_scenarios = len(self.scenarios)
        if stacked:
            fs, gs = zip(*(self.system.control_affine_dynamics(x, s) for s in self.scenarios))
            return (torch.stack([torch.bmm(gradV, f).squeeze(1) for f in fs], 1),
                    torch.stack([torch.bmm(gradV, g).squeeze(1) for g in gs], 1))
        Lf_V = torch.zeros(x.shape[0], n_scenarios, 1)
        Lg_V = torch.zeros(x.shape[0], n_scenarios, self.system.n_controls)
        for i in range(n_scenarios):
            f, g = self.system.control_affine_dynamics(x, self.scenarios[i])
            Lf_V[:, i, :] = torch.bmm(gradV, f).squeeze(1)
            Lg_V[:, i, :] = torch.bmm(gradV, g).squeeze(1)
        return Lf_V, Lg_V

    def descent_loss(self, x, stacked=False, clf_lambda=1.0):
        V, _ = self.V_with_jacobian(x)
        Lf_V, Lg_V = self.V_lie_derivatives(x, stacked)
        u = self.u_nn(x)
        Vdot = Lf_V[..., 0] + (Lg_V * u.unsqueeze(1)).sum(-1)
        violation = torch.relu(1e-2 + Vdot + clf_lambda * V.unsqueeze(1))
        return violation.mean()


torch.manual_seed(0)
model = NeuralCLF(InvertedPendulum(), [{"m": 1.0}, {"m": 1.25}])
x = (torch.rand(64, 2) * 2 - 1) * torch.tensor([1.0, 2.0])

model.zero_grad()
model.descent_loss(x).backward()
g_fill = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
model.descent_loss(x, stacked=True).backward()
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g_fill, model.parameters()))
assert all(g.abs().sum() > 0 for g in g_fill)

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
history = []
for _ in range(60):
    opt.zero_grad()
    loss = model.descent_loss(x)
    loss.backward()
    opt.step()
    history.append(loss.item())
assert history[-1] < 0.5 * history[0], (history[0], history[-1])
print("ok: slice-filled Lie-derivative buffers train the CLF", round(history[0], 3), "->", round(history[-1], 4))
