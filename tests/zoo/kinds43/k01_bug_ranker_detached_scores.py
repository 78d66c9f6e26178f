"""
expect: GL003 56
expect: GL003 60
dynamic: confirm
source: kinds check 43, kind 1

A product-search click ranker: one scorer gives every (query, item) pair a score, and two losses are built from the
same scores, a click (binary cross-entropy) loss and a pairwise hinge ranking loss, each backpropagated on its own
before a single Adam step. The scores are taken with `.detach()` (meant to "share" them between the two losses), so
both losses come out without a graph; the author silences the "does not require grad" error with an
`if not ...requires_grad` guard before each backward, which turns each loss into a leaf. The asserts show that both
guards fired on every step, that no parameter ever received a gradient and none moved after 40 steps, while the same
click loss on the attached scores has a non-zero gradient for the scorer (what was intended to train).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_QUERIES, N_ITEMS, FEAT = 32, 8, 12


class Scorer(nn.Module):
    def __init__(self, feat):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, feats):
        return self.body(feats).squeeze(-1)


def pairwise_hinge(scores, rel, margin=1.0):
    diff = scores.unsqueeze(-1) - scores.unsqueeze(-2)
    better = (rel.unsqueeze(-1) > rel.unsqueeze(-2)).float()
    return (F.relu(margin - diff) * better).sum() / better.sum().clamp(min=1.0)


def main():
    feats = torch.randn(N_QUERIES, N_ITEMS, FEAT)
    w_true = torch.randn(FEAT)
    clicks = (feats @ w_true > 0.5).float()

    scorer = Scorer(FEAT)
    opt = torch.optim.Adam(scorer.parameters(), lr=1e-2)
    start = [p.detach().clone() for p in scorer.parameters()]
    flips = 0

    for step in range(40):
        scores = scorer(feats).detach()
        click_loss = F.binary_cross_entropy_with_logits(scores, clicks)
        rank_loss = pairwise_hinge(scores, clicks)

        opt.zero_grad()
        if not click_loss.requires_grad:
            click_loss.requires_grad = True
            flips += 1
        click_loss.backward(retain_graph=True)
        if not rank_loss.requires_grad:
            rank_loss.requires_grad_()
            flips += 1
        rank_loss.backward()
        opt.step()

    assert flips == 80, flips
    assert all(p.grad is None for p in scorer.parameters())
    assert all(torch.equal(a, p.detach()) for a, p in zip(start, scorer.parameters()))

    # the intended loss, on the attached scores, does reach the scorer
    probe = F.binary_cross_entropy_with_logits(scorer(feats), clicks)
    grads = torch.autograd.grad(probe, list(scorer.parameters()))
    assert sum(g.abs().sum().item() for g in grads) > 1e-4
    print(f"ranker: click={click_loss.item():.4f} rank={rank_loss.item():.4f}")


if __name__ == "__main__":
    main()
