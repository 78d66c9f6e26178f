import torch
import torch.nn as nn
import torch.nn.functional as F


class IdEncoder(nn.Module):
    """Appearance/identity encoder: returns an id embedding and class logits."""

    def __init__(self, in_dim=24, emb=16, n_ids=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, emb))
        self.classifier = nn.Linear(emb, n_ids)

    def forward(self, x):
        f = self.body(x)
        logits = self.classifier(f)
        f = f.detach()  # keep the generator's losses away from the re-id features
        return f, logits


class Decoder(nn.Module):
    def __init__(self, emb=16, struct=8, out_dim=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(emb + struct, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, f, s):
        return self.net(torch.cat([f, s], dim=1))


def recon_criterion(a, b):
    return F.l1_loss(a, b)
