"""expect: GL004 64
dynamic: confirm
source: https://github.com/jlamprou/Infini-Attention/issues/3

Segment-level training of an Infini-attention layer whose compressive memory (M, z) is
accumulated across segments by `_update_memory`; the loop backpropagates after every segment.
The memory is never detached, so retain_graph=True was added to make it run: each backward
re-traverses all earlier segments and the graph keeps growing within a document.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class InfiniAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim, self.gate = dim, nn.Parameter(torch.zeros(1))
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.reset_memory()

    def reset_memory(self):
        self.M, self.z = torch.zeros(self.dim, self.dim), torch.zeros(self.dim)

    def _retrieve(self, q):
        sq = F.elu(q) + 1
        return (sq @ self.M) / (sq @ self.z + 1e-6).unsqueeze(-1)

    def _update_memory(self, k, v):
        sk = F.elu(k) + 1
        self.M = self.M + sk.t() @ v
        self.z = self.z + sk.sum(dim=0)

    def forward(self, seg):
        q, k, v = self.q(seg), self.k(seg), self.v(seg)
        local = F.softmax(q @ k.t() / self.dim ** 0.5, dim=-1) @ v
        g = torch.sigmoid(self.gate)
        out = g * self._retrieve(q) + (1 - g) * local
        self._update_memory(k, v)
        return out


torch.manual_seed(0)
attn, head = InfiniAttention(16), nn.Linear(16, 16)
opt, sizes = torch.optim.AdamW(list(attn.parameters()) + list(head.parameters()), lr=1e-3), []

for doc in range(2):
    tokens = torch.randn(5 * 8, 16)
    attn.reset_memory()
    opt.zero_grad()
    for seg_start in range(0, tokens.size(0) - 8, 8):
        seg, nxt = tokens[seg_start:seg_start + 8], tokens[seg_start + 1:seg_start + 9]
        loss = F.mse_loss(head(attn(seg)), nxt)
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
    opt.step()

first_doc = sizes[:4]
assert all(b > a for a, b in zip(first_doc, first_doc[1:])), first_doc
print("ok: graph grows per segment:", first_doc)
