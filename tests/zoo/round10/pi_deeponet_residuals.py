"""
expect: GL002 46
dynamic: confirm
source: https://github.com/lululxvi/deepxde/pull/1388

In DeepXDE's PDEOperatorCartesianProd the per-function PDE losses were combined
with `bkd.reduce_mean(bkd.as_tensor(l))`; with the PyTorch backend this builds a
new tensor from the loss values, detached from the graph, and PR #1388 reports
the resulting "element 0 of tensors does not require grad" failure (fixed by
stacking instead). This program has a small physics-informed DeepONet for the
antiderivative operator du/dx = f(x): a plain OperatorData class computes the
residual of every input function and returns `torch.as_tensor(per_function)`
averaged. The trainer adds an initial-condition data loss, so training runs
without an error, but the asserts show the network gradient is identical with
the PDE weight at 0 or 1: the physics residual contributes no gradient.
"""
import torch
import torch.nn as nn


class DeepONet(nn.Module):
    def __init__(self, n_sensors=20, width=32):
        super().__init__()
        self.branch = nn.Sequential(nn.Linear(n_sensors, width), nn.Tanh(), nn.Linear(width, width))
        self.trunk = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width))

    def forward(self, f_sensors, x):
        return self.branch(f_sensors) @ self.trunk(x).T      # (n_funcs, n_points)


class OperatorData:
    def __init__(self, n_funcs=6, n_sensors=20, n_points=25):
        self.sensors = torch.linspace(0, 1, n_sensors)
        self.x = torch.linspace(0, 1, n_points).unsqueeze(1)
        freq = torch.arange(1, n_funcs + 1).float().unsqueeze(1)
        self.f_at_sensors = torch.sin(freq * self.sensors)
        self.f_at_points = torch.sin(freq * self.x.T)

    def pde_loss(self, model):
        x = self.x.clone().requires_grad_(True)
        u = model(self.f_at_sensors, x)
        per_function = []
        for i in range(u.shape[0]):
            du_dx = torch.autograd.grad(u[i].sum(), x, create_graph=True)[0].squeeze(1)
            per_function.append(((du_dx - self.f_at_points[i]) ** 2).mean())
        return torch.as_tensor(per_function).mean()

    def ic_loss(self, model):
        u0 = model(self.f_at_sensors, torch.zeros(1, 1))
        return (u0 ** 2).mean()


def flat_grad(model):
    return torch.cat([p.grad.flatten() for p in model.parameters()])


def main():
    torch.manual_seed(0)
    model, data = DeepONet(), OperatorData()
    grads = []
    for pde_weight in (0.0, 1.0):
        model.zero_grad(set_to_none=True)
        pde = data.pde_loss(model)
        loss = data.ic_loss(model) + pde_weight * pde
        loss.backward()
        grads.append(flat_grad(model))
    assert pde.item() > 0.0
    assert torch.equal(grads[0], grads[1])

    # reference: stacking keeps the residual in the graph and changes the gradient
    model.zero_grad(set_to_none=True)
    x = data.x.clone().requires_grad_(True)
    u = model(data.f_at_sensors, x)
    res = [((torch.autograd.grad(u[i].sum(), x, create_graph=True)[0].squeeze(1)
             - data.f_at_points[i]) ** 2).mean() for i in range(u.shape[0])]
    torch.stack(res).mean().backward()
    assert model.branch[0].weight.grad.abs().sum() > 0
    print("PDE residual contributes no gradient: confirmed")


if __name__ == "__main__":
    main()
