import numpy as np
import torch
import torch.nn as nn


class DocRanker(nn.Module):
    def __init__(self, vocab_dim=40, emb=12):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(vocab_dim, emb), nn.ReLU(), nn.Linear(emb, emb))
        self.score_head = nn.Linear(emb, 1)
        self.last_ranking = None

    def forward(self, docs):
        enc = self.embed(docs)
        norms = np.linalg.norm(enc.detach().numpy(), axis=1)
        order = np.argsort(-norms)
        self.last_ranking = torch.tensor(order)
        return self.score_head(enc).squeeze(-1)
