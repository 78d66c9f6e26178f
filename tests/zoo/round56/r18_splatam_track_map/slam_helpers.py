"""Helpers for a toy Gaussian-splatting SLAM: camera poses are stored as
unnormalised quaternions and translations per frame, the map as isotropic
Gaussians in the world frame."""
import torch
import torch.nn.functional as F

FX = FY = 12.0
CX = CY = 8.0
H = W = 16


def build_rotation(q):
    q = F.normalize(q, dim=0)
    w, x, y, z = q[0], q[1], q[2], q[3]
    return torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)]),
        torch.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)]),
        torch.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]),
    ])


def transform_to_frame(params, time_idx, gaussians_grad, camera_grad):
    """Move the Gaussian centres into the camera frame of `time_idx`.

    Tracking optimises only the camera (gaussians_grad=False), mapping only
    the map (camera_grad=False)."""
    if camera_grad:
        cam_rot = params["cam_unnorm_rots"][..., time_idx]
        cam_tran = params["cam_trans"][..., time_idx]
    else:
        cam_rot = params["cam_unnorm_rots"][..., time_idx].detach()
        cam_tran = params["cam_trans"][..., time_idx].detach()
    rel_w2c = torch.eye(4)
    rel_w2c[:3, :3] = build_rotation(cam_rot[0])
    rel_w2c[:3, 3] = cam_tran[0]

    if gaussians_grad:
        pts = params["means3D"]
    else:
        pts = params["means3D"].detach()
    pts4 = torch.cat([pts, torch.ones(pts.shape[0], 1)], dim=1)
    return (rel_w2c @ pts4.T).T[:, :3]


def render(transformed_pts, params):
    z = transformed_pts[:, 2]
    uv = torch.stack([FX * transformed_pts[:, 0] / z + CX,
                      FY * transformed_pts[:, 1] / z + CY], dim=1)
    radius = FX * torch.exp(params["log_scales"]) / z
    ys, xs = torch.meshgrid(torch.arange(H) + 0.5, torch.arange(W) + 0.5, indexing="ij")
    pix = torch.stack([xs, ys], dim=-1).reshape(-1, 1, 2)
    weights = torch.exp(-0.5 * ((pix - uv[None]) ** 2).sum(-1) / radius[None] ** 2)
    return (weights @ params["rgb_colors"]).reshape(H, W, 3)


def get_loss(params, target, time_idx, tracking):
    pts = transform_to_frame(params, time_idx,
                             gaussians_grad=not tracking, camera_grad=tracking)
    return (render(pts, params) - target).abs().mean()
