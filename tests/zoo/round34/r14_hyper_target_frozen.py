"""
expect: none
dynamic: dismiss
source: https://github.com/SSL92/hyperIQA/issues/5

In hyperIQA a hyper network predicts the weights of a small target network,
and the solver loops over the target network's parameters setting
requires_grad = False; the issue asks whether that stops the hyper network
from training. It does not: the target network's own parameters are unused
placeholders, and the generated weights are ordinary graph tensors from the
hyper network. The asserts check every hyper-network parameter gets a nonzero
gradient, the frozen placeholders get none, and the quality loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class HyperNet(nn.Module):
    def __init__(self, feat=12, hidden=8):
        super().__init__()
        self.feat, self.hidden = feat, hidden
        self.backbone = nn.Sequential(nn.Linear(20, feat), nn.ReLU())
        self.w1_gen = nn.Linear(feat, feat * hidden)
        self.b1_gen = nn.Linear(feat, hidden)
        self.w2_gen = nn.Linear(feat, hidden)

    def forward(self, img):
        f = self.backbone(img)
        B = f.shape[0]
        return f, {
            "w1": self.w1_gen(f).view(B, self.hidden, self.feat),
            "b1": self.b1_gen(f),
            "w2": self.w2_gen(f).view(B, 1, self.hidden),
        }


class TargetNet(nn.Module):
    """Scores a feature vector with per-sample weights handed in at call time."""

    def __init__(self, feat=12, hidden=8):
        super().__init__()
        self.placeholder = nn.Parameter(torch.zeros(hidden, feat))

    def forward(self, f, w):
        h = F.relu(torch.bmm(w["w1"], f.unsqueeze(-1)).squeeze(-1) + w["b1"])
        return torch.bmm(w["w2"], h.unsqueeze(-1)).view(-1)


class Solver:
    def __init__(self):
        self.hyper = HyperNet()
        self.target = TargetNet()
        for p in self.target.parameters():
            p.requires_grad = False
        self.opt = torch.optim.Adam(self.hyper.parameters(), lr=1e-2)

    def step(self, img, score):
        self.opt.zero_grad()
        f, weights = self.hyper(img)
        pred = self.target(f, weights)
        loss = F.l1_loss(pred, score)
        loss.backward()
        return loss


solver = Solver()
img = torch.randn(32, 20)
score = torch.rand(32)
first = solver.step(img, score)
for p in solver.hyper.parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0
assert solver.target.placeholder.grad is None
solver.opt.step()
for _ in range(40):
    last = solver.step(img, score)
    solver.opt.step()
assert last.item() < 0.7 * first.item(), (first.item(), last.item())
print("ok: hyper network trains; loss", first.item(), "->", last.item())
