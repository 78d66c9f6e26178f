"""
expect: GL003 43
dynamic: confirm
source: none, invented

Fine-tuning a road segmenter: every pretrained weight of the backbone and the old classifier is frozen, a new
head (self.road_head) is attached and handed to the optimizer, but forward() still returns the old classifier's
output and never calls the new head. The loss therefore has no history; instead of fixing the wiring, the loop
calls loss.requires_grad_() so backward() stops raising. backward() then runs on a leaf, no parameter gets a
gradient, and the new head never changes. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Segmenter(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.classifier = nn.Conv2d(8, n_classes, 1)

    def forward(self, img):
        return self.classifier(F.relu(self.backbone(img)))


model = Segmenter()
for p in model.parameters():
    p.requires_grad = False
model.road_head = nn.Conv2d(8, 2, 1)
opt = torch.optim.SGD(model.road_head.parameters(), lr=0.1)
head_before = model.road_head.weight.detach().clone()

img = torch.randn(2, 3, 16, 16)
mask = torch.randint(0, 2, (2, 16, 16))

for step in range(3):
    opt.zero_grad()
    logits = model(img)[:, :2]
    loss = F.cross_entropy(logits, mask)
    loss.requires_grad_()
    loss.backward()
    opt.step()

assert model.road_head.weight.grad is None, "new head never receives a gradient"
assert torch.equal(head_before, model.road_head.weight), "new head unchanged"
print("k05 ok: new head never trains")
