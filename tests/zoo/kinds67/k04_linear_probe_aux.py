"""
expect: none
dynamic: dismiss
source: none, invented

An image classifier that also monitors how linearly decodable an auxiliary attribute
(e.g. the rotation bucket of the input) is from its features. The forward passes the
pooled features to the model's own `predict` method, which feeds the features straight
into the main classification head and feeds `feats.detach()` into a small probe head.
The probe term is added to the loss, but the detach only keeps the probe from shaping the
backbone; the backbone is still trained through the attached main head, which is what the
author wants. The asserts show the conv backbone and the main head receive non-zero
gradients and change, the probe head trains too, and the backbone gradient equals the one
from the classification loss alone (the probe really does not leak into it).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SmallConvNet(nn.Module):
    def __init__(self, n_classes=10, n_rot=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(16, n_classes)
        self.rot_probe = nn.Linear(16, n_rot)

    def predict(self, feats):
        logits = self.fc(feats)
        probe_logits = self.rot_probe(feats.detach())
        return logits, probe_logits

    def forward(self, x):
        return self.predict(self.features(x))


model = SmallConvNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
conv_before = model.features[0].weight.detach().clone()
probe_before = model.rot_probe.weight.detach().clone()

for step in range(3):
    images = torch.randn(8, 3, 12, 12)
    labels = torch.randint(0, 10, (8,))
    rot = torch.randint(0, 4, (8,))
    logits, probe_logits = model(images)
    cls_loss = F.cross_entropy(logits, labels)
    probe_loss = F.cross_entropy(probe_logits, rot)

    cls_grad = torch.autograd.grad(cls_loss, model.features[0].weight, retain_graph=True)[0]
    opt.zero_grad()
    (cls_loss + probe_loss).backward()
    assert model.features[0].weight.grad.abs().sum() > 0
    assert torch.allclose(model.features[0].weight.grad, cls_grad)
    assert model.rot_probe.weight.grad.abs().sum() > 0
    opt.step()

assert not torch.equal(model.features[0].weight, conv_before)
assert not torch.equal(model.rot_probe.weight, probe_before)
print("ok")
