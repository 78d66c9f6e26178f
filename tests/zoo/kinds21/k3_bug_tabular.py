"""
expect: GL001 39
dynamic: confirm
source: kinds check 21, kind 3 (written for this check)

Credit-default scoring: a row-wise MLP scores each applicant into a preallocated
score vector, and a Platt-style calibration (scale, bias) turns the scores into
logits for a BCE loss. Each score is written with .detach(), so the MLP never
trains from that loss; the calibration parameters still get gradients, so backward()
does not raise. The asserts show the scorer's grads stay None and its weights
unchanged while the calibration's move, and that writing the undetached score
trains the scorer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RowScorer(nn.Module):
    def __init__(self, n_num, n_cat, card, emb=4):
        super().__init__()
        self.cat_emb = nn.Embedding(card, emb)
        self.mlp = nn.Sequential(nn.Linear(n_num + n_cat * emb, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, num_row, cat_row):
        return self.mlp(torch.cat([num_row, self.cat_emb(cat_row).flatten()]))


class CalibratedScorer(nn.Module):
    def __init__(self, scorer):
        super().__init__()
        self.scorer = scorer
        self.scale = nn.Parameter(torch.ones(()))
        self.bias = nn.Parameter(torch.zeros(()))

    def batch_loss(self, num, cat, default):
        scores = torch.zeros(num.shape[0])
        for i in range(num.shape[0]):
            scores[i] = self.scorer(num[i], cat[i]).squeeze().detach()
        logits = self.scale * scores + self.bias
        return F.binary_cross_entropy_with_logits(logits, default)


if __name__ == "__main__":
    torch.manual_seed(6)
    N, n_num, n_cat, card = 48, 5, 3, 10
    num, cat = torch.randn(N, n_num), torch.randint(0, card, (N, n_cat))
    default = (num[:, 0] + 0.5 * num[:, 1] > 0).float()
    model = CalibratedScorer(RowScorer(n_num, n_cat, card))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    scorer0 = [p.detach().clone() for p in model.scorer.parameters()]
    calib0 = [model.scale.detach().clone(), model.bias.detach().clone()]
    for _ in range(5):
        opt.zero_grad()
        model.batch_loss(num, cat, default).backward()
        opt.step()
    assert all(p.grad is None for p in model.scorer.parameters())
    assert all(torch.equal(p, q) for p, q in zip(model.scorer.parameters(), scorer0))
    assert model.scale.grad.abs() > 0 and model.bias.grad.abs() > 0
    assert not torch.equal(model.scale, calib0[0]) and not torch.equal(model.bias, calib0[1])
    # fixed variant: the same buffer filled with the undetached scores trains the scorer
    opt.zero_grad()
    scores = torch.zeros(N)
    for i in range(N):
        scores[i] = model.scorer(num[i], cat[i]).squeeze()
    F.binary_cross_entropy_with_logits(model.scale * scores + model.bias, default).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.scorer.parameters())
    print("ok: the row scorer is starved by the detached writes")
