"""
expect: GL002 38
dynamic: confirm
source: https://github.com/v-mipeng/LexiconNER/issues/7

In the PU-learning NER model the reporter hit "'float' object has no attribute 'backward'" at
(risk).backward() in train_mini_batch, and "solved" it by converting the four returned values
to tensors. This program keeps the risk function in its own module, returning Python floats via
.item(), and the trainer rebuilds the risk with torch.tensor(..., requires_grad=True) so backward
runs. The asserts show the rebuilt risk is a new leaf: every tagger parameter has grad None, the
optimizer step leaves them unchanged, and the tensor-returning risk does train them.
"""
import torch
import torch.nn as nn

from pu_risk import nn_pu_risk, nn_pu_risk_tensor

torch.manual_seed(0)


class TokenScorer(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, feats):
        return self.ff(feats).squeeze(-1)


class PUTrainer:
    def __init__(self, model, prior=0.3, lr=0.05):
        self.model, self.prior = model, prior
        self.optim = torch.optim.SGD(model.parameters(), lr=lr)

    def train_mini_batch(self, feats, labels):
        self.optim.zero_grad()
        acc, risk, prisk, nrisk = nn_pu_risk(self.model(feats), labels, self.prior)
        risk = torch.tensor(risk, requires_grad=True)
        risk.backward()
        self.optim.step()
        return acc, risk.item()

    def train_mini_batch_v2(self, feats, labels):
        self.optim.zero_grad()
        risk = nn_pu_risk_tensor(self.model(feats), labels, self.prior)
        risk.backward()
        self.optim.step()
        return risk.item()


feats = torch.randn(32, 10)
labels = (torch.rand(32) < 0.4).long()

trainer = PUTrainer(TokenScorer())
before = [p.detach().clone() for p in trainer.model.parameters()]
trainer.train_mini_batch(feats, labels)
assert all(p.grad is None for p in trainer.model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, trainer.model.parameters()))

trainer2 = PUTrainer(TokenScorer())
before2 = [p.detach().clone() for p in trainer2.model.parameters()]
trainer2.train_mini_batch_v2(feats, labels)
assert any(not torch.equal(b, p) for b, p in zip(before2, trainer2.model.parameters()))
print("ok: risk rebuilt from .item() floats trains nothing")
