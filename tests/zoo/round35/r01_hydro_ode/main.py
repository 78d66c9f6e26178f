"""
expect: GL002 bucket_ode.py:28
dynamic: confirm
source: https://github.com/rtqichen/torchdiffeq/issues/226

A hydrology neural-ODE report: the ODE right-hand side fed its state into a
flux network through `torch.tensor([S_snow, S_water, temp])`. Plain odeint ran
and trained, only the adjoint variant complained. Here the dynamics module (in
bucket_ode.py) rebuilds the melt-net input the same way, so the gradient that
should flow through the state trajectory into the network is cut. The asserts
check both against a finite difference: the torch.stack copy is exact, the
rebuilt one is off by far more than rounding (a silently wrong gradient).
"""
import torch

from bucket_ode import BucketDynamics, FixedBucketDynamics, ForcingTable

torch.manual_seed(0)
torch.set_num_threads(1)


def euler_solve(func, y0, n_steps, dt=0.5):
    ys = [y0]
    y = y0
    for k in range(n_steps):
        y = y + dt * func(torch.tensor(float(k) * dt), y)
        ys.append(y)
    return torch.cat(ys, 0)


def trajectory_loss(model, target):
    traj = euler_solve(model, torch.tensor([[1.0, 0.2]], dtype=torch.float64), 12)
    return ((traj[:, 1] - target) ** 2).mean()


def melt_grad(model, target):
    model.zero_grad()
    trajectory_loss(model, target).backward()
    return [p.grad.clone() for p in model.melt_net.parameters()]


def directional_fd(model, direction, target, eps=1e-6):
    params = list(model.melt_net.parameters())
    with torch.no_grad():
        for p, d in zip(params, direction):
            p.add_(eps * d)
        up = trajectory_loss(model, target)
        for p, d in zip(params, direction):
            p.sub_(2 * eps * d)
        down = trajectory_loss(model, target)
        for p, d in zip(params, direction):
            p.add_(eps * d)
    return ((up - down) / (2 * eps)).item()


torch.set_default_dtype(torch.float64)
forcing = ForcingTable(torch.linspace(-1.0, 1.0, 12))
target = torch.linspace(0.2, 0.8, 13)

buggy = BucketDynamics(forcing)
fixed = FixedBucketDynamics(forcing)
fixed.load_state_dict(buggy.state_dict())

g_bug = melt_grad(buggy, target)
g_fix = melt_grad(fixed, target)
# probe along the direction where the two gradients disagree
diff = [gb - gf for gb, gf in zip(g_bug, g_fix)]
norm = sum((d * d).sum() for d in diff).sqrt()
direction = [d / norm for d in diff]

true_slope = directional_fd(fixed, direction, target)
fix_slope = sum((g * d).sum() for g, d in zip(g_fix, direction)).item()
bug_slope = sum((g * d).sum() for g, d in zip(g_bug, direction)).item()
print("finite difference", true_slope, "fixed", fix_slope, "buggy", bug_slope)

assert all(g.abs().sum() > 0 for g in g_bug)                 # it still "trains" ...
assert abs(fix_slope - true_slope) < 1e-3 * norm             # stack version is exact
assert abs(bug_slope - true_slope) > 0.5 * norm             # ... rebuilt one is not
assert norm / sum((g * g).sum() for g in g_fix).sqrt() > 0.003  # visibly off, not rounding
