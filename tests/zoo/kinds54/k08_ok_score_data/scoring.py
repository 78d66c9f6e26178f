import torch.nn as nn
import torch.nn.functional as F


class NLLOnProbs(nn.Module):
    def forward(self, p, y):
        return F.nll_loss(p.clamp_min(1e-8).log(), y)

    def accuracy(self, p, y):
        q = p.detach().clone()
        q.round_()
        return (q.argmax(1) == y).float().mean().item()
