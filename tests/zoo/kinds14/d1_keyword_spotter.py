"""
expect: GL001 23
dynamic: confirm
source: kind D

A keyword spotter whose learnable 1-D conv front-end is freshly built in `__init__`, yet its
`featurize` method runs that front-end under torch.no_grad() during training while the
optimizer holds `model.parameters()`. The asserts show the front-end weights get no gradient
and never change, while an otherwise identical model without the no_grad trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, n_keywords=6):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(1, 12, 25, stride=10), nn.ReLU())
        self.classifier = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, n_keywords))

    def featurize(self, waveform):
        with torch.no_grad():
            feats = self.frontend(waveform.unsqueeze(1))
        return feats.mean(-1)

    def forward(self, waveform):
        return self.classifier(self.featurize(waveform))


class KeywordSpotterFixed(KeywordSpotter):
    def featurize(self, waveform):
        return self.frontend(waveform.unsqueeze(1)).mean(-1)


def train(cls):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    clips = torch.randn(10, 800)
    words = torch.randint(0, 6, (10,))
    before = model.frontend[0].weight.detach().clone()
    model.train()
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model(clips), words).backward()
        opt.step()
    return model, before


model, before = train(KeywordSpotter)
assert model.frontend[0].weight.grad is None
assert torch.equal(model.frontend[0].weight, before)
assert model.classifier[0].weight.grad is not None

model, before = train(KeywordSpotterFixed)
assert model.frontend[0].weight.grad is not None
assert not torch.equal(model.frontend[0].weight, before)
print("d1 ok")
