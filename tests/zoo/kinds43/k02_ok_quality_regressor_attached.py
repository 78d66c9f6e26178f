"""
expect: none
dynamic: dismiss
source: kinds check 43, kind 1

An image-quality regressor scored on pooled patch features: one prediction tensor feeds two losses, a mean-squared
error to the mean opinion scores and a pairwise ranking (RankNet-style logistic) loss, each backpropagated on its own
before one SGD step with momentum. The author kept defensive `if not ...requires_grad` guards before each backward,
but the predictions are attached here, so the guards never switch anything. The asserts show the guards never fired,
every parameter received a gradient and moved, and both losses fell over training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)

N_IMAGES, PATCHES, CH = 96, 6, 10


class QualityHead(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.patch = nn.Linear(ch, 24)
        self.out = nn.Linear(24, 1)

    def forward(self, x):
        h = torch.tanh(self.patch(x)).mean(dim=1)
        return self.out(h).squeeze(-1)


def ranknet_loss(pred, mos):
    i, j = torch.triu_indices(len(pred), len(pred), offset=1)
    target = (mos[i] > mos[j]).float()
    return F.binary_cross_entropy_with_logits(pred[i] - pred[j], target)


def main():
    x = torch.randn(N_IMAGES, PATCHES, CH)
    mos = x.mean(dim=1) @ torch.randn(CH) + 0.1 * torch.randn(N_IMAGES)

    head = QualityHead(CH)
    opt = torch.optim.SGD(head.parameters(), lr=0.05, momentum=0.9)
    start = [p.detach().clone() for p in head.parameters()]
    guard_hits = 0
    history = []

    for epoch in range(60):
        pred = head(x)
        mse = F.mse_loss(pred, mos)
        rank = ranknet_loss(pred, mos)

        opt.zero_grad()
        if not mse.requires_grad:
            mse.requires_grad = True
            guard_hits += 1
        mse.backward(retain_graph=True)
        if not rank.requires_grad:
            rank.requires_grad_()
            guard_hits += 1
        rank.backward()
        opt.step()
        history.append((mse.item(), rank.item()))

    assert guard_hits == 0
    assert all(p.grad is not None for p in head.parameters())
    assert all(not torch.equal(a, p.detach()) for a, p in zip(start, head.parameters()))
    assert history[-1][0] < 0.5 * history[0][0], history[::10]
    assert history[-1][1] < history[0][1], history[::10]
    print(f"quality head: mse {history[0][0]:.3f} -> {history[-1][0]:.3f}, rank {history[0][1]:.3f} -> {history[-1][1]:.3f}")


if __name__ == "__main__":
    main()
