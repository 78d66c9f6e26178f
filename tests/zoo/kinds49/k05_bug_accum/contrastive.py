import torch
import torch.nn.functional as F


class InfoNCEObjective:
    def __init__(self, temperature=0.5):
        self.t = temperature

    def loss(self, model, views):
        a, b = views
        za = F.normalize(model(a), dim=1)
        zb = F.normalize(model(b), dim=1)
        logits = za @ zb.t() / self.t
        return F.cross_entropy(logits, torch.arange(a.shape[0]))
