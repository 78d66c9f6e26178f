"""
expect: GL005 ltae.py:18
dynamic: confirm
source: https://github.com/torchgeo/torchgeo/issues/3735

torchgeo issue #3735 ("Bug in LTAE: inplace operation breaks backpropagation"): training
torchgeo's L-TAE failed in loss.backward() with "one of the variables needed for gradient
computation has been modified by an inplace operation: [torch.FloatTensor [128, 32]], which is
output 0 of ReluBackward0"; the model's MLP had nn.Dropout(..., inplace=True) right after nn.ReLU
(added to save memory), and ReLU's backward needs its own output. The workaround in the issue (and
PR #3737) sets the dropout layers back to inplace=False. This program rebuilds an L-TAE crop-type
classifier (ltae.py), asserts that a training step raises the in-place error, and that after the
workaround from the issue the model trains on a toy crop time series.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ltae import LTAE


def make_series(n=64, t=12, c=16, classes=3):
    gen = torch.Generator().manual_seed(0)
    y = torch.arange(n) % classes
    phase = y.float()[:, None] * 2.0
    season = torch.sin(torch.linspace(0, 6.28, t)[None, :] + phase)   # phenology differs per crop
    x = season[..., None] + 0.3 * torch.randn(n, t, c, generator=gen)
    return x, y


class CropClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = LTAE()
        self.head = nn.Linear(32, 3)

    def forward(self, x):
        return self.head(self.encoder(x))


def fit(model, steps=40):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    x, y = make_series()
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
model = CropClassifier().train()
try:
    fit(model, steps=1)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err and "Relu" in err, err

torch.manual_seed(0)
model = CropClassifier().train()
for m in model.modules():           # workaround from the issue
    if isinstance(m, nn.Dropout):
        m.inplace = False
losses = fit(model)
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print("p13 ok: in-place dropout after ReLU breaks L-TAE backward; inplace=False trains")
