"""
expect: none
dynamic: dismiss
source: https://github.com/spla-tam/SplaTAM/issues/75

SplaTAM alternates tracking and mapping on one parameter dict. In
utils/slam_helpers.py, `transform_to_frame` detaches the Gaussian centres
when `gaussians_grad=False` (tracking) and detaches the camera rotation and
translation when `camera_grad=False` (mapping). It builds the relative
world-to-camera matrix by writing into a fresh `torch.eye(4)` in place. Issue
#75 asks whether this is wrong, since in tracking only `means3D` is detached
and colours, scales and so on still get gradients. It is not: during tracking
those map parameters have learning rate 0, and the in-place writes go into a
new matrix that nothing saved. This program runs one tracking phase and one
mapping phase through the same helpers. The asserts show that tracking
recovers the camera pose while the centres get no gradient and the colours
(gradient but lr 0) stay unchanged, and that mapping fixes a corrupted map
while the camera gets no gradient and does not move.
"""
import torch

from slam_helpers import FX, FY, get_loss, render, transform_to_frame

torch.manual_seed(0)
torch.set_num_threads(1)

N = 12
gt_means = torch.cat([torch.rand(N, 2) * 1.4 - 0.7, torch.rand(N, 1) * 1.5 + 3.0], dim=1)
gt_colors = torch.rand(N, 3)
gt_rot = torch.tensor([[0.995, 0.05, -0.07, 0.03]]).T[None]      # (1, 4, 1)
gt_trans = torch.tensor([[0.12, -0.08, 0.1]]).T[None]            # (1, 3, 1)


def make_params():
    return {
        "means3D": gt_means.clone().requires_grad_(True),
        "rgb_colors": gt_colors.clone().requires_grad_(True),
        "log_scales": torch.full((N,), -1.2, requires_grad=True),
        "cam_unnorm_rots": torch.tensor([[1.0, 0.0, 0.0, 0.0]]).T[None].clone().requires_grad_(True),
        "cam_trans": torch.zeros(1, 3, 1, requires_grad=True),
    }


gt_params = {"means3D": gt_means, "rgb_colors": gt_colors,
             "log_scales": torch.full((N,), -1.2),
             "cam_unnorm_rots": gt_rot, "cam_trans": gt_trans}
with torch.no_grad():
    target = render(transform_to_frame(gt_params, 0, True, True), gt_params)


def project(p):
    pts = transform_to_frame(p, 0, gaussians_grad=False, camera_grad=False)
    return torch.stack([FX * pts[:, 0] / pts[:, 2], FY * pts[:, 1] / pts[:, 2]], dim=1)


def pose_error(params):
    """Mean reprojection error (pixels) of the map under the estimated pose."""
    with torch.no_grad():
        return (project(params) - project(gt_params)).norm(dim=1).mean().item()


def make_optimizer(params, tracking):
    lrs = ({"means3D": 0.0, "rgb_colors": 0.0, "log_scales": 0.0,
            "cam_unnorm_rots": 0.01, "cam_trans": 0.01} if tracking else
           {"means3D": 0.002, "rgb_colors": 0.02, "log_scales": 0.0,
            "cam_unnorm_rots": 0.0, "cam_trans": 0.0})
    return torch.optim.Adam([{"params": [v], "lr": lrs[k], "name": k} for k, v in params.items()])


# ---- tracking: camera moves, map stays --------------------------------------
params = make_params()
opt = make_optimizer(params, tracking=True)
colors0 = params["rgb_colors"].detach().clone()
err0 = pose_error(params)
for it in range(300):
    opt.zero_grad()
    get_loss(params, target, 0, tracking=True).backward()
    if it == 0:
        assert params["means3D"].grad is None
        assert params["rgb_colors"].grad is not None
        assert params["cam_trans"].grad.abs().sum() > 0
    opt.step()
assert torch.equal(params["means3D"], gt_means)
assert torch.equal(params["rgb_colors"], colors0)
assert pose_error(params) < 0.25 * err0, (err0, pose_error(params))
tracked_err = pose_error(params)

# ---- mapping: map moves, camera stays ---------------------------------------
with torch.no_grad():
    params["cam_unnorm_rots"].copy_(gt_rot)
    params["cam_trans"].copy_(gt_trans)
    params["rgb_colors"].copy_(torch.rand(N, 3))            # corrupted map colours
cam_before = (params["cam_unnorm_rots"].detach().clone(), params["cam_trans"].detach().clone())
for p in params.values():
    p.grad = None
opt = make_optimizer(params, tracking=False)
color_err0 = (params["rgb_colors"] - gt_colors).abs().mean().item()
for it in range(300):
    opt.zero_grad()
    get_loss(params, target, 0, tracking=False).backward()
    if it == 0:
        assert params["cam_unnorm_rots"].grad is None and params["cam_trans"].grad is None
        assert params["means3D"].grad is not None
    opt.step()
color_err = (params["rgb_colors"] - gt_colors).abs().mean().item()
assert torch.equal(params["cam_unnorm_rots"], cam_before[0])
assert torch.equal(params["cam_trans"], cam_before[1])
assert color_err < 0.5 * color_err0, (color_err0, color_err)
print("tracking: reprojection err %.2f px -> %.2f px; mapping: colour err %.3f -> %.3f"
      % (err0, tracked_err, color_err0, color_err))
