"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 4 (written for this check)

A SimSiam network returns (prediction, projection.detach()); the detached projection is
only a stop-gradient target for the other view's prediction in a negative cosine loss.
The asserts show backbone, projector and predictor all get nonzero gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SimSiam(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16))
        self.predictor = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 16))

    def forward(self, img):
        z = self.projector(self.backbone(img))
        return self.predictor(z), z.detach()


def simsiam_loss(net, view_a, view_b):
    p_a, z_a = net(view_a)
    p_b, z_b = net(view_b)
    return -0.5 * (F.cosine_similarity(p_a, z_b).mean() + F.cosine_similarity(p_b, z_a).mean())


torch.manual_seed(8)
images = torch.rand(8, 3, 16, 16)
view_a = images + 0.1 * torch.randn_like(images)
view_b = torch.flip(images, dims=[3])
net = SimSiam()
simsiam_loss(net, view_a, view_b).backward()
for name, p in net.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
