"""
expect: none
dynamic: dismiss
source: kinds check 27, kind 6

The same mixture-of-experts tagger, but the router returns its
load-balancing statistic still attached to the graph. The loss method only
detaches a copy for its log, and the weighted term it adds does train the
router.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

BALANCE_COEF = 0.5


class Router(nn.Module):
    def __init__(self, dim, n_experts):
        super().__init__()
        self.proj = nn.Linear(dim, n_experts)
        self.n_experts = n_experts

    def forward(self, h):
        probs = F.softmax(self.proj(h), dim=-1)
        routed = F.one_hot(probs.argmax(dim=-1), self.n_experts).float()
        balance = self.n_experts * routed.mean(dim=0) * probs.mean(dim=0)
        return probs, balance


class MoETagger(nn.Module):
    def __init__(self, vocab=80, dim=16, n_experts=4, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.router = Router(dim, n_experts)
        self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_experts)])
        self.head = nn.Linear(dim, n_tags)
        self.history = []

    def forward(self, ids):
        h = self.emb(ids).reshape(-1, self.emb.embedding_dim)
        gates, balance = self.router(h)
        mixed = sum(gates[:, i:i + 1] * torch.tanh(e(h)) for i, e in enumerate(self.experts))
        return self.head(mixed), balance

    def loss(self, x, y, weight=BALANCE_COEF):
        logits, stat = self(x)
        ce = F.cross_entropy(logits, y.reshape(-1))
        self.history.append(stat.detach().mean().item())
        return ce + weight * stat.mean(), ce, stat


model = MoETagger()
ids = torch.randint(0, 80, (4, 9))
tags = torch.randint(0, 5, (4, 9))
total, ce, stat = model.loss(ids, tags)

router_params = list(model.router.parameters())
g_total = torch.autograd.grad(total, router_params, retain_graph=True)
g_ce = torch.autograd.grad(ce, router_params)

assert stat.requires_grad
assert len(model.history) == 1
diff = sum((a - b).abs().sum().item() for a, b in zip(g_total, g_ce))
assert diff > 1e-5, diff
print("balance =", model.history[0], "changes router grads by", diff)
