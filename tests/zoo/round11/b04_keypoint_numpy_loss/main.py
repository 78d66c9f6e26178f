"""
expect: GL002 losses.py:20
dynamic: confirm
source: https://github.com/open-mmlab/mmpose/issues/1958

The report: training an mmpose model with a custom loss stopped with "element 0 of tensors does not
require grad and does not have a grad_fn" inside the optimizer wrapper's backward (the loss code itself
is not shown). This program rebuilds a custom keypoint loss that fails that way, in losses.py: it
measures the pixel distance with numpy
(pred.detach().cpu().numpy()) and, to get past the error, returns torch.tensor(value,
requires_grad=True). The asserts show the loss now backpropagates without error but the regression
head and backbone get grad None and keep their weights; a torch-only distance trains them.
"""
import torch
import torch.nn as nn

from losses import KeypointDistanceLoss

NUM_KPTS = 5


class PoseHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
        self.coord = nn.Linear(64, NUM_KPTS * 2)

    def forward(self, feats):
        return self.coord(self.backbone(feats)).view(-1, NUM_KPTS, 2)


torch.manual_seed(0)
model = PoseHead()
criterion = KeypointDistanceLoss(loss_weight=1.0)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
feats = torch.randn(16, 32)
gt = torch.rand(16, NUM_KPTS, 2) * 64
visible = torch.rand(16, NUM_KPTS) > 0.2

w0 = model.coord.weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = criterion(model(feats), gt, visible)
    loss.backward()
    assert model.coord.weight.grad is None and model.backbone[0].weight.grad is None
    opt.step()
assert torch.equal(w0, model.coord.weight)

# the same distance written in torch gives the head a gradient
opt.zero_grad()
pred = model(feats)
dist = torch.linalg.norm(pred - gt, dim=-1)[visible].mean()
dist.backward()
assert model.coord.weight.grad.abs().sum() > 0
print("ok: numpy-computed keypoint loss rebuilt as a leaf trains nothing")
