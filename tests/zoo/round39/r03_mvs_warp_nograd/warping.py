import torch
import torch.nn.functional as F


def homo_warp(src_fea, src_proj, ref_proj, depth_values):
    """Warp source features onto reference-view depth planes.

    src_fea: [B, C, H, W], projections: [B, 3, 4], depth_values: [B, D]
    returns: [B, C, D, H, W]
    """
    b, c, h, w = src_fea.shape
    d = depth_values.shape[1]
    # the sampling grid is pure geometry (fixed cameras, fixed depth hypotheses)
    with torch.no_grad():
        proj = src_proj[:, :3, :3] @ torch.inverse(ref_proj[:, :3, :3])
        trans = src_proj[:, :3, 3:] - proj @ ref_proj[:, :3, 3:]
        y, x = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                              torch.arange(w, dtype=torch.float32), indexing="ij")
        xyz = torch.stack((x.flatten(), y.flatten(), torch.ones(h * w)))  # [3, HW]
        xyz = xyz.unsqueeze(0).repeat(b, 1, 1)
        rot_xyz = proj @ xyz  # [B, 3, HW]
        rot_depth_xyz = rot_xyz.unsqueeze(2) * depth_values.view(b, 1, d, 1)
        proj_xyz = rot_depth_xyz + trans.view(b, 3, 1, 1)
        proj_xy = proj_xyz[:, :2] / proj_xyz[:, 2:3].clamp(min=1e-3)
        gx = proj_xy[:, 0] / ((w - 1) / 2) - 1
        gy = proj_xy[:, 1] / ((h - 1) / 2) - 1
        grid = torch.stack((gx, gy), dim=3)  # [B, D, HW, 2]
    warped = F.grid_sample(src_fea, grid.view(b, d * h, w, 2), mode="bilinear",
                           padding_mode="zeros", align_corners=True)
    return warped.view(b, c, d, h, w)
