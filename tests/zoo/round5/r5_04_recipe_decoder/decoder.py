import torch
import torch.nn as nn


class IngredientDecoder(nn.Module):
    """Greedy autoregressive decoder over an ingredient vocabulary."""

    def __init__(self, feat_dim, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, feat_dim)
        self.cell = nn.GRUCell(feat_dim, feat_dim)
        self.out = nn.Linear(feat_dim, vocab_size)

    def sample(self, img_feat, max_len):
        hidden = img_feat
        token = torch.zeros(img_feat.size(0), dtype=torch.long)
        step_logits = []
        for _ in range(max_len):
            hidden = self.cell(self.embed(token), hidden)
            logits = self.out(hidden)
            step_logits.append(logits)
            token = logits.argmax(dim=-1)
        return torch.stack(step_logits, 1).data
