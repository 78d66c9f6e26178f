"""
expect: GL005 35
dynamic: error
source: https://github.com/databricks/megablocks/pull/70

A top-k mixture-of-experts feed-forward block for a small token model. The router
picks the top-k experts per token and, when `normalize_expert_weights` is set,
renormalises the selected weights in place, `expert_weights /= norm`, where `norm` is
`torch.norm(expert_weights, p)`. The norm op saved `expert_weights` for its backward and
the in-place division bumps that tensor's version, so the first backward through the
MoE layer raises "modified by an inplace operation". The program asserts the error from
a plain training step and that the out-of-place division trains the router.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TopKRouter(nn.Module):
    def __init__(self, hidden, num_experts, top_k=2, normalize_expert_weights=1, inplace=True):
        super().__init__()
        self.layer = nn.Linear(hidden, num_experts, bias=False)
        self.top_k = top_k
        self.normalize_expert_weights = normalize_expert_weights
        self.inplace = inplace

    def forward(self, x):
        scores = self.layer(x).softmax(dim=-1)
        expert_weights, expert_indices = torch.topk(scores, self.top_k, dim=-1)
        if self.normalize_expert_weights:
            norm = torch.norm(expert_weights, p=self.normalize_expert_weights, dim=-1, keepdim=True)
            if self.inplace:
                expert_weights /= norm
            else:
                expert_weights = expert_weights / norm
        return expert_weights, expert_indices


class MoEFeedForward(nn.Module):
    def __init__(self, hidden=16, num_experts=4, top_k=2, inplace=True):
        super().__init__()
        self.router = TopKRouter(hidden, num_experts, top_k, inplace=inplace)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(hidden, 32), nn.GELU(), nn.Linear(32, hidden))
                                     for _ in range(num_experts))

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        weights, indices = self.router(tokens)
        out = torch.zeros_like(tokens)
        for k in range(indices.shape[1]):
            for e, expert in enumerate(self.experts):
                mask = indices[:, k] == e
                if mask.any():
                    out = out.index_add(0, mask.nonzero().squeeze(1),
                                        weights[mask, k, None] * expert(tokens[mask]))
        return x + out.view_as(x)


class TinyLM(nn.Module):
    def __init__(self, vocab=40, hidden=16, inplace=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.moe = MoEFeedForward(hidden, inplace=inplace)
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, ids):
        return self.lm_head(self.moe(self.embed(ids)))


def train_step(model, optimizer, ids):
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


ids = torch.randint(0, 40, (4, 9))
model = TinyLM(inplace=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
raised = None
try:
    train_step(model, optimizer, ids)
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

torch.manual_seed(0)
model = TinyLM(inplace=False)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
train_step(model, optimizer, ids)
assert model.moe.router.layer.weight.grad is not None
assert model.moe.router.layer.weight.grad.abs().sum() > 0

print("OK")
