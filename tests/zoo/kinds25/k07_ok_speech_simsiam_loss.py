"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 2

SimSiam-style self-supervised pretraining on two augmented views of random log-mel clips.
The loss object takes the predictor outputs (attached) and the projections of the other view
(detached: the stop-gradient that keeps SimSiam from collapsing) and returns the symmetric
negative cosine between each prediction and the opposite view's target. Every term contains an
attached prediction, so encoder and predictor both train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SymmetricNegCosine(nn.Module):
    def forward(self, preds, targets):
        p1, p2 = preds
        z1, z2 = targets
        return -0.5 * (F.cosine_similarity(p1, z2, dim=-1).mean()
                       + F.cosine_similarity(p2, z1, dim=-1).mean())


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=20, dim=32):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, dim, 3, padding=1)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, mel):
        return self.proj(torch.relu(self.conv(mel)).mean(-1))


def augment(mel):
    return mel * (0.8 + 0.4 * torch.rand(mel.shape[0], 1, 1)) + 0.05 * torch.randn_like(mel)


encoder = AudioEncoder()
predictor = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 32))
crit = SymmetricNegCosine()
params = list(encoder.parameters()) + list(predictor.parameters())
opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
clips = torch.randn(32, 20, 40)

losses = []
for step in range(30):
    z1, z2 = encoder(augment(clips)), encoder(augment(clips))
    p1, p2 = predictor(z1), predictor(z2)
    loss = crit((p1, p2), (z1.detach(), z2.detach()))
    opt.zero_grad()
    loss.backward()
    for p in params:
        assert p.grad is not None and p.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert losses[-1] < losses[0], (losses[0], losses[-1])
print("ok: SimSiam loss went from", round(losses[0], 3), "to", round(losses[-1], 3))
