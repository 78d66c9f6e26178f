import torch
import torch.nn as nn


class AttnPoolEncoder(nn.Module):
    """Embeds tokens and pools them with a learned attention distribution."""

    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, tokens):
        h = self.emb(tokens)
        attn = torch.softmax(self.score(h).squeeze(-1), dim=-1)
        pooled = (attn.unsqueeze(-1) * h).sum(1)
        entropy = -(attn * attn.clamp_min(1e-9).log()).sum(-1)
        return pooled, entropy.detach()
