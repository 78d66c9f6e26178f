import torch
import torch.nn as nn


class TextEncoder(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, ids):
        return self.norm(torch.tanh(self.proj(self.embed(ids))))


class LabelSemanticsNER(nn.Module):
    """Token tags scored against encoded label descriptions ("B-PER: begin of person", ...)."""

    def __init__(self, label_token_ids, recompute_labels=False):
        super().__init__()
        self.token_encoder = TextEncoder()
        self.label_encoder = TextEncoder()
        self.register_buffer("label_token_ids", label_token_ids)
        self.recompute_labels = recompute_labels
        self.label_representation = self.label_encoder(self.label_token_ids).mean(1)

    def forward(self, input_ids):
        if self.recompute_labels:
            labels = self.label_encoder(self.label_token_ids).mean(1)
        else:
            labels = self.label_representation
        return self.token_encoder(input_ids) @ labels.t()
