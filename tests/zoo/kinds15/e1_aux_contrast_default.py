"""
expect: GL001 31
dynamic: confirm
source: kind E

A vision training step takes an auxiliary-loss function as a parameter whose default computes a
feature-alignment term through the model's projection layer inside torch.no_grad(), so the term
adds no gradient; the projection layer is reached only by that term. The asserts show the
projection's .grad stays None under the default, and the same step called once with an alternative
function that keeps the graph gives the projection a gradient and changes its weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)


class SmallConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(6, 5)
        self.projector = nn.Linear(6, 6)

    def forward(self, x):
        return self.classifier(self.trunk(x))


def view_alignment(model, images):
    with torch.no_grad():
        z1 = F.normalize(model.projector(model.trunk(images)), dim=-1)
        z2 = F.normalize(model.projector(model.trunk(images.flip(-1))), dim=-1)
    return (1 - (z1 * z2).sum(-1)).mean()


def paired_view_alignment(model, images):
    z1 = F.normalize(model.projector(model.trunk(images)), dim=-1)
    z2 = F.normalize(model.projector(model.trunk(images.flip(-1))), dim=-1)
    return (1 - (z1 * z2).sum(-1)).mean()


def train_step(model, opt, images, labels, aux_fn=view_alignment, aux_weight=0.5):
    loss = F.cross_entropy(model(images), labels) + aux_weight * aux_fn(model, images)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


images = torch.randn(8, 3, 12, 12)
labels = torch.randint(0, 5, (8,))
model = SmallConvNet()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
p0 = model.projector.weight.detach().clone()
for _ in range(3):
    train_step(model, opt, images, labels)
assert model.projector.weight.grad is None
assert torch.equal(p0, model.projector.weight.detach())
print("default aux: projector gets no gradient")

train_step(model, opt, images, labels, aux_fn=paired_view_alignment)
assert model.projector.weight.grad is not None and model.projector.weight.grad.abs().sum() > 0
assert not torch.equal(p0, model.projector.weight.detach())
print("ok")
