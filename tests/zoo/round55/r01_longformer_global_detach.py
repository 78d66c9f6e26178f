"""
expect: GL001 43
dynamic: confirm
source: https://github.com/allenai/longformer/issues/201

A small Longformer-style layer: ordinary tokens attend to neighbours inside a sliding window and, through
one joint softmax, to a few global tokens whose keys and values come from separate global projections.
The part of the output that ordinary tokens read from the global tokens is computed in a helper; to get
rid of a "modified by an inplace operation" error the reporter wrapped both operands of that matmul in
.detach(). The error goes away, but the global-value projection `v_global` now feeds the loss only through
a cut value, so it never receives a gradient and Adam never moves it, while the rest of the layer trains.
The asserts show `v_global.weight.grad is None` and unchanged weights for the detached helper, and a
non-zero gradient and moving weights for the same model with the helper left attached.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class WindowGlobalAttention(nn.Module):
    def __init__(self, dim, window):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.k_global = nn.Linear(dim, dim)
        self.v_global = nn.Linear(dim, dim)
        self.window = window
        self.scale = dim ** -0.5

    def _local_scores(self, q, k):
        n = q.shape[1]
        idx = torch.arange(n)
        band = (idx[:, None] - idx[None, :]).abs() <= self.window
        scores = q @ k.transpose(1, 2) * self.scale
        return scores.masked_fill(~band, float("-inf"))

    def _attn_output_with_global_indices(self, probs_only_global, values_only_global):
        # workaround from the report: detach both sides so the in-place error disappears
        return torch.matmul(probs_only_global.detach(), values_only_global.detach())

    def forward(self, h, g):
        q, k, v = self.q(h), self.k(h), self.v(h)
        kg, vg = self.k_global(g), self.v_global(g)
        glob = q @ kg.transpose(1, 2) * self.scale
        probs = torch.softmax(torch.cat([glob, self._local_scores(q, k)], dim=-1), dim=-1)
        m = g.shape[1]
        out_local = probs[..., m:] @ v
        out_global = self._attn_output_with_global_indices(probs[..., :m], vg)
        return out_local + out_global


class AttachedGlobalAttention(WindowGlobalAttention):
    def _attn_output_with_global_indices(self, probs_only_global, values_only_global):
        return torch.matmul(probs_only_global, values_only_global)


class Tagger(nn.Module):
    def __init__(self, attn_cls, vocab=30, dim=16, n_global=2, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.global_tokens = nn.Parameter(torch.randn(1, n_global, dim) * 0.5)
        self.attn = attn_cls(dim, window=2)
        self.head = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        h = self.emb(tokens)
        g = self.global_tokens.expand(tokens.shape[0], -1, -1)
        return self.head(F.gelu(self.attn(h, g)))


def train(attn_cls, steps=15):
    torch.manual_seed(1)
    model = Tagger(attn_cls)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    tokens = torch.randint(0, 30, (4, 12))
    tags = torch.randint(0, 5, (4, 12))
    before = model.attn.v_global.weight.detach().clone()
    grads = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(tokens).reshape(-1, 5), tags.reshape(-1))
        loss.backward()
        grads.append(model.attn.v_global.weight.grad)
        opt.step()
    moved = (model.attn.v_global.weight.detach() - before).abs().max().item()
    return model, grads, moved, loss.item()


buggy, buggy_grads, buggy_moved, buggy_loss = train(WindowGlobalAttention)
assert all(gr is None for gr in buggy_grads), "v_global should get no gradient through the detached path"
assert buggy_moved == 0.0
assert buggy.attn.q.weight.grad is not None  # the rest of the layer still trains

fixed, fixed_grads, fixed_moved, fixed_loss = train(AttachedGlobalAttention)
assert fixed_grads[0] is not None and fixed_grads[0].abs().sum() > 0
assert fixed_moved > 1e-3
print(f"detached helper: v_global moved {buggy_moved:.2e}, final loss {buggy_loss:.3f}")
print(f"attached helper: v_global moved {fixed_moved:.2e}, final loss {fixed_loss:.3f}")
