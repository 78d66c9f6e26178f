"""
expect: GL005 41
dynamic: confirm
source: https://github.com/MARSLab-UMN/vi_depth_completion/issues/1

Depth completion with planar priors: a network predicts a surface-normal image, and for every plane class in a
segmentation mask the normals inside the plane are gathered with a boolean mask, a robust mean normal is fitted,
and the mask is then refined in place to keep only the inlier pixels before the plane normal is painted back. The
boolean-mask gather saved that mask for its backward; refining the same mask in place bumps its version, so
training on the plane-normal loss fails with "modified by an inplace operation" (the anomaly trace in the linked
issue points at the `normal_image[mask_for_class]` gather). The program shows the error and that refining a copy
of the mask trains the normal network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def mean_normal_inliers(normals, thr=0.0):
    mean = F.normalize(normals.mean(0), dim=0)
    inliers = (normals @ mean.detach()) > thr
    surface = F.normalize(normals[inliers].mean(0), dim=0) if inliers.any() else mean
    return surface, inliers


def planes_from_normals(normal_image, plane_mask, refine_copy=False):
    normal_image = normal_image.permute(1, 2, 0)  # [H, W, 3]
    planes = normal_image
    for cls in torch.unique(plane_mask):
        if cls == 0:
            continue
        mask_for_class = plane_mask == cls
        normals = normal_image[mask_for_class]
        surface, inliers = mean_normal_inliers(normals)
        if refine_copy:
            mask_for_class = mask_for_class.clone()
        idx = mask_for_class.nonzero(as_tuple=True)
        mask_for_class[idx] = inliers
        planes = torch.where(mask_for_class[..., None], surface[None, None, :], planes)
    return planes.permute(2, 0, 1)


normal_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
rgb = torch.randn(1, 3, 10, 10)
gt_normals = F.normalize(torch.randn(3, 10, 10), dim=0)
plane_mask = torch.zeros(10, 10, dtype=torch.long)
plane_mask[:5, :] = 1
plane_mask[6:, 3:8] = 2

pred = F.normalize(normal_net(rgb)[0], dim=0)
loss = (planes_from_normals(pred, plane_mask) - gt_normals).abs().mean()
try:
    loss.backward()
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err

normal_net.zero_grad()
pred = F.normalize(normal_net(rgb)[0], dim=0)
loss = (planes_from_normals(pred, plane_mask, refine_copy=True) - gt_normals).abs().mean()
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in normal_net.parameters())
print("in-place mask refinement after the gather raised; refining a copy trains the normal net")
