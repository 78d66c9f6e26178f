"""expect: GL002 17
dynamic: confirm
source: https://github.com/open-mmlab/mmpose/issues/2788

A custom soft-IoU loss rebuilds its input: `forward` copies the predicted mask into a new tensor from the Python values (`torch.tensor(pred.tolist(), requires_grad=True)`) to get past a dtype/device problem, which also silences the "does not require grad" error. The loss is now a function of a fresh leaf, and the segmentation head it is meant to train never receives a gradient (.grad None).
"""
import torch
import torch.nn as nn


class SoftIoULoss(nn.Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, pred, target):
        probs = torch.tensor(pred.tolist(), requires_grad=True)
        inter = (probs * target).sum()
        union = (probs + target - probs * target).sum()
        return 1 - inter / (union + self.eps)


torch.manual_seed(0)
head = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1), nn.Sigmoid())
criterion = SoftIoULoss()
opt = torch.optim.Adam(head.parameters(), lr=1e-3)
feats = torch.randn(2, 4, 8, 8)
mask = (torch.rand(2, 1, 8, 8) > 0.5).float()
for _ in range(3):
    loss = criterion(head(feats), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("head grad:", head[0].weight.grad)
