"""
expect: none
dynamic: dismiss
source: https://github.com/yehyunsuh/Acetabular-Cup-Pose-Estimator/blob/6ab1a81b44eee05945d2f04fe4c03c4300c0d6e9/loss.py

Estimating the 3-D pose of an acetabular cup from an X-ray: the cup rim is
rotated/translated by five free parameters, projected with a perspective model,
an ellipse is fitted to the projection and compared with the ellipse seen in the
image.  The repository has a CustomHausdorffLoss that turns the points into NumPy
arrays (`.detach().cpu().numpy()`), runs a Hausdorff distance there and returns
`torch.tensor(hausdorff, requires_grad=True)` - the classic way to silently lose
a loss's history.  Here it is harmless: main.py only uses it as the
comparison_fn whose value is printed and kept with the best pose; the training
loss is the differentiable angle-aware MSE on the ellipse parameters.  After
each optimizer.step() the angles are also projected back into their valid range
with `vars[0].data = torch.clamp(vars[0].data, -90, 0)`, which resolves the
mirror ambiguity of the projection and touches nothing a graph still needs.
The asserts show the parameters' gradients are identical with or without the
metric call, the metric tensor never gets a gradient path, the clamp holds, and
the pose is recovered (loss and Hausdorff distance both fall).
"""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
DT = torch.float64
H_SOURCE = 10.0  # source-to-detector distance


def rot(angle_deg, axis):
    a = torch.deg2rad(angle_deg)
    c, s, o, z = torch.cos(a), torch.sin(a), torch.ones_like(a), torch.zeros_like(a)
    if axis == "x":
        return torch.stack([torch.stack([o, z, z]), torch.stack([z, c, -s]), torch.stack([z, s, c])])
    return torch.stack([torch.stack([c, -s, z]), torch.stack([s, c, z]), torch.stack([z, z, o])])


def rim_points(n=36, r=1.0):
    t = torch.linspace(0, 2 * torch.pi, n + 1, dtype=DT)[:-1]
    return torch.stack([r * torch.cos(t), r * torch.sin(t), torch.zeros_like(t)], 1)


def project(pose, S):
    theta, phi, k, l, h = pose
    R = rot(phi, "z") @ rot(theta, "x")
    P = (R @ S.T).T + torch.stack([k, l, h])
    ratio = H_SOURCE / (H_SOURCE - P[:, 2])
    return torch.stack([P[:, 0] * ratio, P[:, 1] * ratio], 1)


def fit_ellipse(pts):
    """Centre, semi-axes and orientation (deg, mod 180) from second moments."""
    c = pts.mean(0)
    d = pts - c
    sxx, syy, sxy = (d[:, 0] ** 2).mean(), (d[:, 1] ** 2).mean(), (d[:, 0] * d[:, 1]).mean()
    root = torch.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
    l1, l2 = (sxx + syy) / 2 + root, (sxx + syy) / 2 - root
    angle = torch.rad2deg(0.5 * torch.atan2(2 * sxy, sxx - syy)) % 180
    return torch.stack([c[0], c[1], torch.sqrt(2 * l1), torch.sqrt(2 * l2), angle])


class CustomMSELoss(torch.nn.Module):
    def forward(self, pred, gt):
        diff = pred[:4] - gt[:4]
        ad = torch.abs(pred[4] - gt[4])
        ad = torch.min(ad, 180 - ad)
        return torch.mean(torch.cat([diff, ad.unsqueeze(0) / 10]) ** 2)


def ellipse_points(e, n=90):
    x, y, a, b, ang = e
    t = torch.linspace(0, 2 * torch.pi, n, dtype=DT)
    pts = torch.stack([a * torch.cos(t), b * torch.sin(t)])
    r = torch.deg2rad(ang)
    Rm = torch.stack([torch.stack([torch.cos(r), -torch.sin(r)]), torch.stack([torch.sin(r), torch.cos(r)])])
    return (Rm @ pts).T + torch.stack([x, y])


def directed_hausdorff(u, v):
    d = np.sqrt(((u[:, None, :] - v[None, :, :]) ** 2).sum(-1))
    return d.min(1).max()


class CustomHausdorffLoss(torch.nn.Module):
    def forward(self, e1, e2):
        p1 = ellipse_points(e1).detach().cpu().numpy()
        p2 = ellipse_points(e2).detach().cpu().numpy()
        hd = max(directed_hausdorff(p1, p2), directed_hausdorff(p2, p1))
        return torch.tensor(hd, dtype=torch.float32, requires_grad=True)


S = rim_points()
true_pose = torch.tensor([-20.0, 30.0, 0.3, -0.2, 0.5], dtype=DT)
E = fit_ellipse(project(true_pose, S))  # the ellipse "seen in the X-ray"

vars = [
    torch.nn.Parameter(torch.tensor(-25.0, dtype=DT)),
    torch.nn.Parameter(torch.tensor(40.0, dtype=DT)),
    torch.nn.Parameter(E[0].clone().detach().requires_grad_(True)),
    torch.nn.Parameter(E[1].clone().detach().requires_grad_(True)),
    torch.nn.Parameter(torch.tensor(0.0, dtype=DT)),
]
loss_fn = CustomMSELoss()
comparison_fn = CustomHausdorffLoss()
optimizer = torch.optim.SGD([
    {"params": vars[:2], "lr": 20.0},
    {"params": vars[2:4], "lr": 0.2},
    {"params": vars[4:], "lr": 0.2},
], momentum=0.9)

# the metric does not change what the parameters receive
E_hat = fit_ellipse(project(torch.stack(vars), S))
ref = torch.autograd.grad(loss_fn(E_hat, E), vars, retain_graph=True)
hd0 = comparison_fn(E_hat, E)
assert hd0.grad_fn is None and hd0.is_leaf
again = torch.autograd.grad(loss_fn(E_hat, E), vars)
assert all(torch.equal(a, b) for a, b in zip(ref, again))

best_loss, best_hd, first_loss = float("inf"), None, None
for epoch in range(400):
    E_hat = fit_ellipse(project(torch.stack(vars), S))
    loss = loss_fn(E_hat, E)
    hd_diff = comparison_fn(E_hat, E)
    loss.backward()
    first_loss = loss.item() if first_loss is None else first_loss
    if loss.item() < best_loss:
        best_loss, best_hd = loss.item(), hd_diff
        best_vars = [v.clone().detach() for v in vars]
    optimizer.step()
    vars[0].data = torch.clamp(vars[0].data, -90, 0)
    vars[1].data = torch.clamp(vars[1].data, 0, 90)
    optimizer.zero_grad()
    assert -90 <= vars[0].item() <= 0

assert hd_diff.grad is None  # never part of any backward
assert best_loss < 1e-3 * first_loss, (first_loss, best_loss)
assert best_hd.item() < 0.2 * hd0.item(), (hd0.item(), best_hd.item())
assert abs(best_vars[0].item() - true_pose[0].item()) < 5.0, best_vars
print(f"loss {first_loss:.4f} -> {best_loss:.2e}, Hausdorff {hd0.item():.3f} -> {best_hd.item():.4f}, "
      f"theta {best_vars[0].item():.2f} (true {true_pose[0].item():.0f})")
