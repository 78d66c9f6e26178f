"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 5 (written for this check)

The test loop's `@torch.no_grad()` method calls only the classifier's plain prediction; the
saliency method, which backpropagates to the input, is called from a separate method outside
any no_grad region. The asserts show nothing raises, the saliency map is nonzero, and one
training step gives every parameter a nonzero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class RetinaClassifier(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))

    def saliency(self, images, labels):
        x = images.clone().requires_grad_(True)
        score = self(x).gather(1, labels[:, None]).sum()
        score.backward()
        return x.grad.abs().amax(1)


class TestLoop:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def accuracy(self, batches):
        hits = [(self.model(x).argmax(1) == y).float().mean().item() for x, y in batches]
        return sum(hits) / len(hits)

    def explain(self, images, labels):
        maps = self.model.saliency(images, labels)
        self.model.zero_grad()
        return maps


model = RetinaClassifier()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.rand(4, 3, 8, 8), torch.randint(0, 3, (4,))) for _ in range(2)]
x, y = batches[0]
opt.zero_grad()
F.cross_entropy(model(x), y).backward()
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
opt.step()

loop = TestLoop(model)
acc = loop.accuracy(batches)
maps = loop.explain(x, y)
assert 0.0 <= acc <= 1.0 and maps.shape == (4, 8, 8) and maps.sum() > 0
print("ok: no_grad region only predicts; saliency runs outside it")
