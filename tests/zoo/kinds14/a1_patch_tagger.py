"""
expect: GL003 27
dynamic: confirm
source: kind A

Trains a small conv image tagger with a helper whose `reuse_features` flag switches
requires_grad on the conv encoder. The same program runs the helper both ways: with
reuse_features=True the encoder weights (held by the optimizer) get no gradient and stay
unchanged; with reuse_features=False they receive gradients and move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(8, 5)

    def forward(self, images):
        return self.classifier(self.encoder(images).mean(dim=(2, 3)))


def train_epoch(model, opt, images, tags, reuse_features):
    model.encoder.requires_grad_(not reuse_features)
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), tags)
        loss.backward()
        opt.step()


def run(reuse_features):
    torch.manual_seed(0)
    model = PatchTagger()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    images = torch.randn(8, 3, 12, 12)
    tags = torch.randint(0, 5, (8,))
    enc_before = model.encoder[0].weight.detach().clone()
    cls_before = model.classifier.weight.detach().clone()
    train_epoch(model, opt, images, tags, reuse_features)
    return model, enc_before, cls_before


model, enc_before, cls_before = run(reuse_features=True)
assert model.encoder[0].weight.grad is None
assert torch.equal(model.encoder[0].weight, enc_before)
assert not torch.equal(model.classifier.weight, cls_before)

model, enc_before, cls_before = run(reuse_features=False)
assert model.encoder[0].weight.grad is not None
assert not torch.equal(model.encoder[0].weight, enc_before)
print("a1 ok")
