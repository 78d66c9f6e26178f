"""
expect: none
dynamic: dismiss
source: https://github.com/qcraftai/distill-bev/issues/10

A reader of DistillBEV asks how the distillation loss can train the camera student when
`extract_img_feat` calls `bev_feat_list[1].detach()`. The author explains that only the BEV
feature of the *adjacent* (previous) frame is detached; the current frame's BEV feature keeps
its graph, so the head, the adaptation convs and the whole image backbone still get gradients
through the current frame, and the LiDAR teacher runs under no_grad. This program rebuilds a
two-frame BEVDet-style student (shared backbone, adjacent frame detached, temporal fusion),
a frozen teacher and a feature-distillation + detection loss; the asserts show the backbone,
adapter and head all receive non-zero gradients and move, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CameraBEVStudent(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1))
        self.view_transform = nn.Conv2d(c, c, 1)          # stand-in for lift-splat to BEV
        self.fuse = nn.Conv2d(2 * c, c, 3, padding=1)
        self.head = nn.Conv2d(c, 2, 1)                     # heatmap + size

    def bev(self, img):
        return self.view_transform(self.backbone(img))

    def extract_img_feat(self, img_curr, img_prev):
        bev_feat_list = [self.bev(img_curr), self.bev(img_prev)]
        bev_feat_list[1] = bev_feat_list[1].detach()       # previous frame: no gradient
        return F.relu(self.fuse(torch.cat(bev_feat_list, dim=1)))

    def forward(self, img_curr, img_prev):
        bev = self.extract_img_feat(img_curr, img_prev)
        return bev, self.head(bev)


student = CameraBEVStudent()
teacher = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1))
teacher.eval()
adapter = nn.Conv2d(16, 16, 1)
opt = torch.optim.Adam(list(student.parameters()) + list(adapter.parameters()), lr=2e-3)

img_curr, img_prev = torch.rand(4, 3, 16, 16), torch.rand(4, 3, 16, 16)
lidar_bev = torch.rand(4, 1, 16, 16)
targets = torch.rand(4, 2, 16, 16)

before = {n: p.detach().clone() for n, p in student.named_parameters()}
losses = []
for step in range(30):
    with torch.no_grad():
        t_feat = teacher(lidar_bev)
    s_feat, preds = student(img_curr, img_prev)
    loss = F.mse_loss(preds, targets) + 0.5 * F.mse_loss(adapter(s_feat), t_feat)
    opt.zero_grad()
    loss.backward()
    for name in ["backbone.0.weight", "view_transform.weight", "fuse.weight", "head.weight"]:
        assert dict(student.named_parameters())[name].grad.abs().sum() > 0, name
    assert adapter.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert all(not torch.equal(before[n], p) for n, p in student.named_parameters())
assert losses[-1] < losses[0]
print(f"p17 ok: student trains through the current frame ({losses[0]:.3f} -> {losses[-1]:.3f})")
