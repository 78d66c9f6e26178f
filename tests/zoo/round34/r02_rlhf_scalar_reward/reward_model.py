import torch
import torch.nn as nn


class RewardModel(nn.Module):
    """Frozen scorer: embeds a token sequence and returns one float per call."""

    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, 1)

    def score(self, prompt_ids, response_ids):
        ids = torch.cat([prompt_ids, response_ids])
        with torch.no_grad():
            hidden = self.embed(ids).mean(0)
            value = self.head(hidden)
        return value.item()
