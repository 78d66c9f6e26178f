"""
expect: GL001 gaussian_projection.py:72
dynamic: confirm
source: https://github.com/openvdb/fvdb-reality-capture/pull/332

In fVDB's Gaussian-splatting trainer, projection for pinhole cameras went
through a torch.autograd.Function that pairs the compiled forward kernel with
its backward kernel, but the branch for distorted camera models (COLMAP
SIMPLE_RADIAL/RADIAL/OPENCV) called the forward kernel directly. The kernel's
outputs carry no autograd history, so the image loss still backpropagates into
the colours, yet means, rotations and scales get no gradient at all: the
Gaussians stay at their SfM positions, and nothing warns. The PR routes the
distorted branch through an autograd Function too. Here gaussian_projection.py
has the same split (the forward kernel is a `@torch.no_grad()` function). The
asserts show that with a radially distorted camera the means never get a
gradient and do not move while the colours train; routed through the Function,
the means converge towards the ground-truth scene.
"""
import torch

from gaussian_projection import Camera, render

torch.manual_seed(0)
torch.set_num_threads(1)

camera = Camera(intrinsics=(10.0, 10.0, 8.0, 8.0), k1=-0.05)

gt_means = torch.cat([torch.rand(6, 2) * 1.6 - 0.8, torch.rand(6, 1) * 2 + 3], dim=1)
gt_log_scales = torch.full((6,), -0.7)
gt_colors = torch.rand(6, 3)
with torch.no_grad():
    target = render(gt_means, gt_log_scales, gt_colors, camera, distorted_via_autograd=True)

init_means = gt_means + 0.15 * torch.randn(6, 3) * torch.tensor([1.0, 1.0, 0.0])


def fit(distorted_via_autograd, steps=300):
    means = init_means.clone().requires_grad_(True)
    log_scales = gt_log_scales.clone().requires_grad_(True)
    colors = torch.full((6, 3), 0.5, requires_grad=True)
    opt = torch.optim.Adam([means, log_scales, colors], lr=0.02)
    first_grad = None
    for step in range(steps):
        opt.zero_grad()
        img = render(means, log_scales, colors, camera, distorted_via_autograd)
        loss = ((img - target) ** 2).mean()
        loss.backward()
        if step == 0:
            first_grad = (means.grad, colors.grad.clone())
        opt.step()
    return means.detach(), colors.detach(), first_grad, loss.item()


def mean_error(m):
    return (m - gt_means)[:, :2].norm(dim=1).mean().item()


# Distorted camera, forward kernel called directly (as before the PR).
means, colors, (g_means, g_colors), loss_bug = fit(distorted_via_autograd=False)
assert g_means is None
assert g_colors.abs().sum() > 0
assert torch.equal(means, init_means)
assert not torch.allclose(colors, torch.full((6, 3), 0.5))

# Routed through the autograd Function (the fix).
means_fix, _, (g_means_fix, _), loss_fix = fit(distorted_via_autograd=True)
assert g_means_fix is not None and g_means_fix.abs().sum() > 0
assert mean_error(means_fix) < 0.5 * mean_error(init_means), (mean_error(init_means), mean_error(means_fix))
assert loss_fix < loss_bug
print("direct kernel: means frozen (err %.3f); via Function: err %.3f -> %.3f"
      % (mean_error(means), mean_error(init_means), mean_error(means_fix)))
