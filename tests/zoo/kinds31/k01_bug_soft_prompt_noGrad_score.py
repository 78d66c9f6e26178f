"""
expect: GL001 30
dynamic: confirm
source: kinds check 31, kind 1

A learned soft prompt is tuned against a frozen sentence scorer. The scorer's
`score` helper is wrapped in @torch.no_grad(), so the relevance term in the
loss is a constant; only the norm regulariser sends gradient to the prompt.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class FrozenSentenceScorer(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, 1)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, prompt, ids):
        seq = torch.cat([prompt.unsqueeze(0).expand(ids.shape[0], -1, -1), self.tok(ids)], dim=1)
        h, _ = self.mix(seq)
        return self.head(h[:, -1]).squeeze(-1)

    @torch.no_grad()
    def score(self, prompt, ids):
        return self.forward(prompt, ids)


scorer = FrozenSentenceScorer().eval()
ids = torch.randint(0, 50, (8, 6))
soft_prompt = nn.Parameter(torch.randn(4, 16) * 0.1)
lr, lam = 0.05, 1e-2


def objective(with_relevance=True):
    reg = lam * soft_prompt.pow(2).sum()
    if not with_relevance:
        return reg
    relevance = -scorer.score(soft_prompt, ids).mean()
    return relevance + reg


for step in range(3):
    loss = objective()
    soft_prompt.grad = None
    loss.backward()
    with torch.no_grad():
        soft_prompt -= lr * soft_prompt.grad

soft_prompt.grad = None
objective(True).backward()
g_full = soft_prompt.grad.clone()
soft_prompt.grad = None
objective(False).backward()
g_reg = soft_prompt.grad.clone()
assert torch.equal(g_full, g_reg), "relevance term should contribute no gradient"
print("ok: relevance term is dead, grad identical", g_full.norm().item())
