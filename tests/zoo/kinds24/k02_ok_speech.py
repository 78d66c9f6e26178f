"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 2 (written for this check)

A SimSiam model for log-mel clips returns `p, z.detach()`: the detached projection is only
the stop-gradient target of the other view's attached prediction in a symmetric negative-
cosine loss module, and its spread is logged as a collapse monitor. The asserts show every
backbone, projector and predictor parameter gets a nonzero gradient and nothing raises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class ClipSimSiam(nn.Module):
    def __init__(self, n_mels=20, d=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv1d(n_mels, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(32, d), nn.BatchNorm1d(d))
        self.predictor = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))

    def forward(self, clip):
        z = self.projector(self.backbone(clip))
        p = self.predictor(z)
        return p, z.detach()


class SymmetricNegCosine(nn.Module):
    def forward(self, p1, z2, p2, z1):
        return -(F.cosine_similarity(p1, z2).mean() + F.cosine_similarity(p2, z1).mean()) / 2


def augment(clip):
    gain = torch.empty(clip.size(0), 1, 1).uniform_(0.7, 1.3)
    return clip * gain + 0.1 * torch.randn_like(clip)


model, criterion = ClipSimSiam(), SymmetricNegCosine()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
clips = torch.randn(8, 20, 30)
history = []
opt.zero_grad()
p1, z1 = model(augment(clips))
p2, z2 = model(augment(clips))
loss = criterion(p1, z2, p2, z1)
loss.backward()
history.append(F.normalize(z1, dim=1).std(0).mean().item())
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
opt.step()
assert history[0] > 0
print("ok: detached projections are stop-gradient targets; every parameter trains")
