"""
expect: none
dynamic: dismiss
source: https://github.com/spencerbraun/anomaly_transformer_pytorch/issues/4

Anomaly Transformer training for time-series anomaly detection uses a minimax association-discrepancy
objective with stop-gradients: in the minimize phase the series association S is detached so only the prior
association P (the learnable Gaussian scale sigma) is pulled toward it; in the maximize phase P is detached so
only S is pushed away. Both losses come from one forward pass, so the first backward needs retain_graph=True
and the optimizer steps once after both, as suggested in the issue thread (min_loss.backward(retain_graph=True);
max_loss.backward()). The detaches are deliberate stop-gradients and the retained graph is dropped at the end of
each step. The asserts show that each phase reaches exactly the intended parameters, that the second backward
needs the retained graph, and that the graph does not grow between steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class AnomalyAttention(nn.Module):
    def __init__(self, win=16, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.sigma = nn.Linear(d, 1)
        dist = torch.arange(win).float()
        self.register_buffer("dist", (dist[:, None] - dist[None, :]).abs())

    def forward(self, x):
        S = torch.softmax(self.q(x) @ self.k(x).transpose(1, 2) / x.shape[-1] ** 0.5, -1)
        s = torch.sigmoid(self.sigma(x) * 5) + 1e-5
        P = torch.exp(-self.dist ** 2 / (2 * s ** 2)) / (s * (2 * torch.pi) ** 0.5)
        P = P / P.sum(-1, keepdim=True)
        return S @ self.v(x), S, P


class AnomalyTransformer(nn.Module):
    def __init__(self, c=3, d=8):
        super().__init__()
        self.embed = nn.Linear(c, d)
        self.attn = AnomalyAttention(d=d)
        self.out = nn.Linear(d, c)

    def forward(self, x):
        h, S, P = self.attn(self.embed(x))
        return self.out(h), S, P


def discrepancy(P, S):
    kl = lambda a, b: (a * (torch.log(a + 1e-8) - torch.log(b + 1e-8))).sum(-1)
    return (kl(P, S) + kl(S, P)).mean()


def step(model, opt, x, lam=3.0):
    x_hat, S, P = model(x)
    rec = F.mse_loss(x_hat, x)
    min_loss = rec + lam * discrepancy(P, S.detach())
    max_loss = rec - lam * discrepancy(P.detach(), S)
    opt.zero_grad()
    min_loss.backward(retain_graph=True)
    max_loss.backward()
    opt.step()
    return rec.item()


def count_nodes(fn):
    seen, stack = set(), [fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


x = torch.sin(torch.linspace(0, 12, 16))[None, :, None].repeat(4, 1, 3) + 0.05 * torch.randn(4, 16, 3)
model = AnomalyTransformer()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

# each phase reaches the intended parameters only
_, S, P = model(x)
g_sigma = torch.autograd.grad(discrepancy(P, S.detach()), model.attn.sigma.weight, retain_graph=True)[0]
assert g_sigma.abs().sum() > 0
g_q = torch.autograd.grad(discrepancy(P.detach(), S), [model.attn.q.weight, model.attn.sigma.weight],
                          allow_unused=True)
assert g_q[0].abs().sum() > 0 and g_q[1] is None

# without retain_graph the second backward through the shared forward fails
x_hat, S, P = model(x)
rec = F.mse_loss(x_hat, x)
rec.add(discrepancy(P, S.detach())).backward()
try:
    rec.sub(discrepancy(P.detach(), S)).backward()
    needed = False
except RuntimeError:
    needed = True
assert needed
opt.zero_grad()

sizes, recs = [], []
for i in range(60):
    recs.append(step(model, opt, x))
    _, S, P = model(x)
    sizes.append(count_nodes(discrepancy(P, S).grad_fn))
assert len(set(sizes)) == 1
assert recs[-1] < recs[0]
print("reconstruction %.4f -> %.4f, graph size constant at %d nodes" % (recs[0], recs[-1], sizes[0]))
