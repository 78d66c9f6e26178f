"""
expect: GL005 86
dynamic: confirm
source: https://github.com/whubaichuan/M3VSNet/issues/5

M3VSNet trains multi-view-stereo depth without labels: for every source view the loss projects
the reference pixels into the source camera with the predicted depth (project_with_depth, which
multiplies the source intrinsics with the back-projected points) and compares colours and VGG
features. For the feature term at twice the resolution the code writes
"src_intrinsics_perceptual = src_intrinsics[i]" and then scales it with "[:, :2, :] *= 2". That is
not a copy: it edits, in place, the very intrinsics tensor the earlier matmul saved to compute the
gradient with respect to the projected points, so backward stops with "modified by an inplace
operation" (users in the issue tried a=a+b elsewhere without finding it). This program keeps the
same loss structure on a toy two-view scene with an analytic texture: a small depth network, a
base-resolution photometric term and a 2x-resolution term built from the aliased, rescaled
intrinsics. The asserts catch the RuntimeError on the first backward and show that building the
2x intrinsics out of place (clone, then scale) lets the depth network train: the loss falls and the
predicted depth gets closer to the true depth.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, H, W = 2, 16, 16
FOCAL, BASELINE = 16.0, 0.6


def intrinsics(scale=1.0):
    K = torch.tensor([[FOCAL, 0.0, (W - 1) / 2], [0.0, FOCAL, (H - 1) / 2], [0.0, 0.0, 1.0]])
    K[:2] *= scale
    return K


def texture(u, v):  # analytic scene colour at base-resolution source pixel (u, v)
    return torch.sin(0.9 * u) + torch.cos(0.7 * v) + 0.5 * torch.sin(0.35 * (u + v))


def project_with_depth(depth_ref, K_ref, E_ref, K_src, E_src):
    b = depth_ref.shape[0]
    y, x = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
    pix = torch.stack((x.reshape(-1), y.reshape(-1), torch.ones(H * W)))          # 3 x HW
    xyz_ref = torch.matmul(torch.inverse(K_ref), pix.unsqueeze(0) * depth_ref.view(b, 1, -1))
    ones = torch.ones(b, 1, H * W)
    xyz_src = torch.matmul(torch.matmul(E_src, torch.inverse(E_ref)), torch.cat((xyz_ref, ones), 1))[:, :3]
    K_xyz_src = torch.matmul(K_src, xyz_src)
    xy = K_xyz_src[:, :2] / K_xyz_src[:, 2:3]
    return xy[:, 0].view(b, H, W), xy[:, 1].view(b, H, W)


def sample(img, x, y):
    h, w = img.shape[-2:]
    grid = torch.stack((x / ((w - 1) / 2) - 1, y / ((h - 1) / 2) - 1), dim=-1)
    return F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=True)[:, 0]


# scene: smooth true depth, reference image rendered from the analytic texture
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
true_depth = (2.5 + 0.8 * torch.sin(xx / 5.0) * torch.cos(yy / 6.0)).expand(B, H, W).clone()
E_ref = torch.eye(4).expand(B, 4, 4).clone()
E_src = torch.eye(4).expand(B, 4, 4).clone()
E_src[:, 0, 3] = -BASELINE
intr = torch.stack([intrinsics(), intrinsics()]).expand(B, 2, 3, 3).clone()   # (B, views, 3, 3)
with torch.no_grad():
    gx, gy = project_with_depth(true_depth, intr[:, 0], E_ref, intr[:, 1], E_src)
    ref_img = texture(gx, gy).unsqueeze(1)
src_img = texture(xx, yy).expand(B, 1, H, W).clone()
Y2, X2 = torch.meshgrid(torch.arange(2 * H, dtype=torch.float32), torch.arange(2 * W, dtype=torch.float32), indexing="ij")
src_img_hi = texture(X2 / 2, Y2 / 2).expand(B, 1, 2 * H, 2 * W).clone()


def mvs_loss(depth, intrinsics_all, copy_before_scaling):
    intrinsics_v = torch.unbind(intrinsics_all, 1)
    ref_K, src_Ks = intrinsics_v[0], intrinsics_v[1:]
    loss = 0.0
    for i in range(len(src_Ks)):
        x_src, y_src = project_with_depth(depth, ref_K, E_ref, src_Ks[i], E_src)
        loss = loss + (sample(src_img, x_src, y_src) - ref_img[:, 0]).abs().mean()
        if copy_before_scaling:
            src_K_hi = src_Ks[i].clone()
            src_K_hi[:, :2, :] = src_K_hi[:, :2, :] * 2
        else:
            src_K_hi = src_Ks[i]
            src_K_hi[:, :2, :] *= 2
        x_hi, y_hi = project_with_depth(depth, ref_K, E_ref, src_K_hi, E_src)
        loss = loss + 0.5 * (sample(src_img_hi, x_hi, y_hi) - ref_img[:, 0]).abs().mean()
    return loss


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, img):
        return 1.0 + 3.0 * torch.sigmoid(self.net(img))[:, 0]


def train(copy_before_scaling, steps):
    torch.manual_seed(1)
    net = DepthNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        batch_intr = intr.clone()          # fresh intrinsics every batch, as a loader would give
        loss = mvs_loss(net(ref_img), batch_intr, copy_before_scaling)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        err = (net(ref_img) - true_depth).abs().mean().item()
    return losses, err


try:
    train(copy_before_scaling=False, steps=1)
    raise AssertionError("expected the in-place rescale of saved intrinsics to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

torch.manual_seed(1)
init_err = (DepthNet()(ref_img) - true_depth).abs().mean().item()
losses, err = train(copy_before_scaling=True, steps=150)
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
assert err < 0.7 * init_err, (init_err, err)
print("ok: aliased intrinsics *= 2 breaks backward; copied intrinsics train depth",
      round(init_err, 3), "->", round(err, 3))
