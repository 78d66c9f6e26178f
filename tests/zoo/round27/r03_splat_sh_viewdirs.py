"""
expect: GL001 37
dynamic: confirm
source: https://github.com/nerfstudio-project/gsplat/pull/183

In a Gaussian-splatting rasterizer the maintainer noted that camera-pose
gradients were flawed because the spherical-harmonics colour evaluation had
no gradient for the view directions, "essentially putting a detach() there".
This cut-down splat renderer evaluates degree-1 SH colours from view
directions that are detached inside the SH helper, so the photometric loss
never reaches the learnable camera offset. The asserts show the camera gets
no gradient and stays put, while the same renderer without the cut moves it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

C0 = 0.28209479177387814
C1 = 0.4886025119029199


class SHColor(nn.Module):
    """Degree-1 spherical harmonics colour per Gaussian."""

    def __init__(self, n):
        super().__init__()
        self.coeffs = nn.Parameter(torch.randn(n, 4, 3) * 0.3)

    def forward(self, dirs, differentiable_dirs=False):
        if differentiable_dirs:
            d = dirs
        else:
            # backward for the view directions is "not implemented"
            d = dirs.detach()
        x, y, z = d[:, 0:1], d[:, 1:2], d[:, 2:3]
        c = self.coeffs
        rgb = C0 * c[:, 0] - C1 * y * c[:, 1] + C1 * z * c[:, 2] - C1 * x * c[:, 3]
        return torch.sigmoid(rgb + 0.5)


class SplatScene(nn.Module):
    def __init__(self, n=32):
        super().__init__()
        self.register_buffer("means", torch.randn(n, 3))
        self.sh = SHColor(n)
        self.cam_offset = nn.Parameter(torch.zeros(3))  # pose refinement

    def render(self, cam_origin, differentiable_dirs=False):
        cam = cam_origin + self.cam_offset
        dirs = F.normalize(self.means - cam, dim=-1)
        return self.sh(dirs, differentiable_dirs)


def fit(differentiable_dirs, steps=30):
    torch.manual_seed(1)
    scene = SplatScene()
    true_cam = torch.tensor([0.0, 0.0, -4.0])
    with torch.no_grad():
        target = scene.render(true_cam + torch.tensor([0.4, -0.3, 0.2]), True)
    opt = torch.optim.Adam([scene.cam_offset], lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(scene.render(true_cam, differentiable_dirs), target)
        loss.backward()
        opt.step()
    return scene, loss.item()


buggy, buggy_loss = fit(differentiable_dirs=False)
fixed, fixed_loss = fit(differentiable_dirs=True)

assert buggy.cam_offset.grad is None
assert torch.count_nonzero(buggy.cam_offset.detach()) == 0
assert fixed.cam_offset.grad is not None and fixed.cam_offset.grad.abs().sum() > 0
assert fixed_loss < buggy_loss
print("ok: pose frozen by detached view dirs; fixed loss", fixed_loss, "vs", buggy_loss)
