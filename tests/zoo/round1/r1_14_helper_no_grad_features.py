"""expect: GL001 14
dynamic: confirm
source: https://github.com/rll-research/cic/issues/5

As in the linked report, observations are encoded inside `torch.no_grad()`, here in a helper, and the contrastive/skill loss is then trained on those features with an optimizer that holds the CNN encoder. The features have no history, so the encoder never gets a gradient (its .grad stays None) while the projection head trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def embed(cnn, obs):
    with torch.no_grad():
        return cnn(obs).flatten(1)


torch.manual_seed(0)
cnn = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
proj = nn.Linear(32, 8)
opt = torch.optim.Adam(list(cnn.parameters()) + list(proj.parameters()), lr=1e-3)

obs = torch.randn(6, 3, 16, 16)
skills = torch.randn(6, 8)
for _ in range(3):
    z = proj(embed(cnn, obs))
    logits = F.normalize(z, dim=1) @ F.normalize(skills, dim=1).T
    loss = F.cross_entropy(logits / 0.5, torch.arange(6))
    opt.zero_grad()
    loss.backward()
    opt.step()

print("cnn grad:", cnn[0].weight.grad)
print("proj grad norm:", proj.weight.grad.norm().item())
