"""
expect: none
dynamic: dismiss
source: none, invented

Implicit-feedback recommendation with a matrix-factorisation model. `Fitter` is constructed with the model and
keeps `self.opt = Adam(model.parameters())`; `Fitter.fit_on(loss)` does zero_grad / backward / step. Each
iteration of `Experiment.run_epoch` first scores a batch of (user, positive, negative) triples and hands the
BPR loss to the fitter; after that step it scores a separate batch of explicit ratings with the updated model
and hands that MSE loss to the fitter as a second, independent update. The second loss is computed after the
first step, so its graph is built on the current weights and nothing is backpropagated through stale
weights. The asserts show both updates run every iteration without error, the embeddings move, and the
model ranks held-out positives above negatives far more often than chance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS, RANK = 60, 80, 8
true_u, true_i = torch.randn(N_USERS, 4), torch.randn(N_ITEMS, 4)
affinity = true_u @ true_i.t()


class MatrixFactorization(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, RANK)
        self.items = nn.Embedding(N_ITEMS, RANK)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        for emb in (self.users, self.items):
            nn.init.normal_(emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)

    def forward(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1) + self.item_bias(i).squeeze(-1)


class Fitter:
    def __init__(self, model, lr=1e-2):
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def fit_on(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class Experiment:
    def __init__(self):
        self.model = MatrixFactorization()
        self.fitter = Fitter(self.model)

    def sample_triples(self, n=256):
        u = torch.randint(0, N_USERS, (n,))
        a, b = torch.randint(0, N_ITEMS, (n,)), torch.randint(0, N_ITEMS, (n,))
        better = affinity[u, a] > affinity[u, b]
        return u, torch.where(better, a, b), torch.where(better, b, a)

    def run_epoch(self, iters=50):
        log = []
        for _ in range(iters):
            u, pos, neg = self.sample_triples()
            bpr = -F.logsigmoid(self.model(u, pos) - self.model(u, neg)).mean()
            log.append(self.fitter.fit_on(bpr))

            ru, ri = torch.randint(0, N_USERS, (128,)), torch.randint(0, N_ITEMS, (128,))
            ratings = torch.sigmoid(affinity[ru, ri])
            rating_loss = F.mse_loss(torch.sigmoid(self.model(ru, ri)), ratings)
            log.append(self.fitter.fit_on(rating_loss))
        return log

    @torch.no_grad()
    def pairwise_accuracy(self):
        u, pos, neg = self.sample_triples(5000)
        return (self.model(u, pos) > self.model(u, neg)).float().mean().item()


exp = Experiment()
start = exp.model.users.weight.detach().clone()
before = exp.pairwise_accuracy()
for epoch in range(8):
    log = exp.run_epoch()
after = exp.pairwise_accuracy()
assert len(log) == 100
assert not torch.equal(start, exp.model.users.weight)
assert exp.model.items.weight.grad is not None
assert after > 0.85 and after > before + 0.2, (before, after)
print(f"ok: pairwise ranking accuracy {before:.2f} -> {after:.2f}")
