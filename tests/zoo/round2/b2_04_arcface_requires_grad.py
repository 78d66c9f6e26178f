"""expect: GL001 37
expect: GL003 42
dynamic: confirm
source: https://github.com/ronghuaiyang/arcface-pytorch/issues/56

A face-recognition trainer gets backbone and margin-head logits from a helper
that was written for evaluation and wraps the forward pass in `no_grad`.
Backward then fails with "element 0 of tensors does not require grad", and the
reporter silenced it by setting `loss.requires_grad = True`; the error went
away but the loss never declined and accuracy stayed at zero, because the loss
is now a leaf with no path to any weight.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MarginHead(nn.Module):
    def __init__(self, dim, classes, s=16.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, dim))
        self.s = s

    def forward(self, feats):
        return self.s * F.linear(F.normalize(feats), F.normalize(self.weight))


class FaceTrainer:
    def __init__(self):
        self.backbone = nn.Sequential(nn.Linear(20, 16), nn.PReLU())
        self.head = MarginHead(16, 5)
        params = list(self.backbone.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.SGD(params, lr=0.1)

    def logits(self, images):
        with torch.no_grad():
            out = self.head(self.backbone(images))
        return out

    def step(self, images, labels):
        loss = F.cross_entropy(self.logits(images), labels)
        loss.requires_grad = True
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = FaceTrainer()
    x, y = torch.randn(32, 20), torch.randint(0, 5, (32,))
    losses = [trainer.step(x, y) for _ in range(5)]
    assert trainer.head.weight.grad is None
    assert trainer.backbone[0].weight.grad is None
    assert max(losses) - min(losses) < 1e-6
    print("ok: loss is flat, weights untouched")
