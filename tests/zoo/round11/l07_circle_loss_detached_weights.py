"""
expect: none
dynamic: dismiss
source: https://github.com/TinyZeaMays/CircleLoss/issues/28

The question: what is the meaning of detaching sp and sn in CircleLoss? In Circle loss the
re-weighting factors alpha_p = [1 + m - s_p]_+ and alpha_n = [s_n + m]_+ are meant to be constants
per step; only the similarities themselves carry the gradient. This program rebuilds the loss with
sp.detach()/sn.detach() inside the weights only and trains an embedding network with it. The asserts
show every embedding parameter gets a non-zero gradient, the loss falls, and positive pairs end up
more similar than negative pairs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def convert_label_to_similarity(feature, label):
    sim = feature @ feature.t()
    same = label.unsqueeze(1) == label.unsqueeze(0)
    upper = torch.triu(torch.ones_like(sim, dtype=torch.bool), diagonal=1)
    return sim[same & upper], sim[~same & upper]


class CircleLoss(nn.Module):
    def __init__(self, m=0.25, gamma=64.0):
        super().__init__()
        self.m, self.gamma = m, gamma

    def forward(self, sp, sn):
        ap = torch.clamp_min(-sp.detach() + 1 + self.m, min=0.0)
        an = torch.clamp_min(sn.detach() + self.m, min=0.0)
        delta_p, delta_n = 1 - self.m, self.m
        logit_p = -ap * (sp - delta_p) * self.gamma
        logit_n = an * (sn - delta_n) * self.gamma
        return F.softplus(torch.logsumexp(logit_n, dim=0) + torch.logsumexp(logit_p, dim=0))


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 8))
crit = CircleLoss()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
centers = torch.randn(4, 10) * 2
labels = torch.arange(4).repeat_interleave(8)
x = centers[labels] + torch.randn(32, 10)

losses = []
for it in range(150):
    emb = F.normalize(net(x))
    loss = crit(*convert_label_to_similarity(emb, labels))
    opt.zero_grad()
    loss.backward()
    if it == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
    opt.step()
    losses.append(loss.item())

with torch.no_grad():
    sp, sn = convert_label_to_similarity(F.normalize(net(x)), labels)
assert losses[-1] < losses[0] and sp.mean() > sn.mean() + 0.5, (losses[0], losses[-1], sp.mean(), sn.mean())
print(f"ok: detached weighting only; loss {losses[0]:.1f} -> {losses[-1]:.1f}, sp {sp.mean():.2f} vs sn {sn.mean():.2f}")
