"""
expect: GL003 37
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/3890

The issue: to keep the gradient of an intermediate activation, setting
s.requires_grad = True fails ("only leaf variables") and the suggested workaround
re-wraps the data as a new leaf, Variable(s.data, requires_grad=True) - which makes
s.grad appear but disconnects everything before s. Here a keyword-spotting model does
the modern equivalent inside forward() when gradient monitoring is on:
feats.detach().requires_grad_(True), so the trainer can log feats.grad.norm(). The
classifier trains, the convolutional encoder silently never does. The asserts show
encoder grads are None while feature grads are logged, and that retain_grad() keeps both.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
N_MELS, FRAMES, N_WORDS = 20, 32, 5


class KWSNet(nn.Module):
    def __init__(self, track_feature_grad=False):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 3, padding=1), nn.ReLU(),
            nn.Conv1d(32, 32, 3, padding=1), nn.ReLU())
        self.classifier = nn.Linear(32, N_WORDS)
        self.track_feature_grad = track_feature_grad
        self.last_features = None

    def forward(self, mels):
        feats = self.encoder(mels).mean(-1)
        if self.track_feature_grad:
            feats = feats.detach().requires_grad_(True)
            self.last_features = feats
        return self.classifier(feats)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.feature_grad_norms = []

    def step(self, mels, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(mels), labels)
        loss.backward()
        if self.model.last_features is not None:
            self.feature_grad_norms.append(self.model.last_features.grad.norm().item())
        self.opt.step()
        return loss.item()


def batch(n=16):
    labels = torch.randint(0, N_WORDS, (n,))
    mels = torch.randn(n, N_MELS, FRAMES) + labels[:, None, None].float() * 0.3
    return mels, labels


model = KWSNet(track_feature_grad=True)
trainer = Trainer(model)
enc_before = [p.detach().clone() for p in model.encoder.parameters()]
for _ in range(10):
    trainer.step(*batch())
assert len(trainer.feature_grad_norms) == 10 and trainer.feature_grad_norms[0] > 0
assert all(p.grad is None for p in model.encoder.parameters())
assert all(torch.equal(a, b) for a, b in zip(enc_before, model.encoder.parameters()))


class KWSNetRetain(KWSNet):
    def forward(self, mels):
        feats = self.encoder(mels).mean(-1)
        feats.retain_grad()
        self.last_features = feats
        return self.classifier(feats)


fixed = KWSNetRetain()
fixed.load_state_dict(model.state_dict())
t2 = Trainer(fixed)
t2.step(*batch())
assert t2.feature_grad_norms[0] > 0
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.encoder.parameters())
print("ok: monitoring re-wrap froze the encoder; retain_grad() keeps it training")
