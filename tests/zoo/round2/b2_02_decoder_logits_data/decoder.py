import torch
import torch.nn as nn


class IngredientDecoder(nn.Module):
    """Autoregressive head that predicts a set of ingredients step by step."""

    def __init__(self, dim, vocab, steps):
        super().__init__()
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)
        self.steps = steps

    def forward(self, feats):
        h = feats
        step_logits = []
        for _ in range(self.steps):
            h = self.cell(feats, h)
            step_logits.append(self.out(h))
        return torch.stack(step_logits, 1).data
