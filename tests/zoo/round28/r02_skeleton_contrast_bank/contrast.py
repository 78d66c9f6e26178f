"""Graph-level contrastive loss with a class-labelled memory bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InfoNCEGraph(nn.Module):
    def __init__(self, dim, bank_size=32, num_classes=3, temperature=0.2, snapshot_bank=False):
        super().__init__()
        g = torch.Generator().manual_seed(1)
        self.register_buffer("bank", F.normalize(torch.randn(bank_size, dim, generator=g), dim=1))
        self.register_buffer("bank_labels", torch.randint(0, num_classes, (bank_size,), generator=g))
        self.ptr = 0
        self.t = temperature
        self.snapshot_bank = snapshot_bank

    @torch.no_grad()
    def _enqueue(self, feats, labels):
        n = feats.shape[0]
        idx = (torch.arange(n) + self.ptr) % self.bank.shape[0]
        self.bank[idx] = feats
        self.bank_labels[idx] = labels
        self.ptr = (self.ptr + n) % self.bank.shape[0]

    def similarities(self, f_normed):
        if self.snapshot_bank:
            return torch.einsum("nc,mc->nm", f_normed, self.bank.clone())
        return torch.einsum("nc,mc->nm", f_normed.detach(), self.bank)

    def forward(self, feats, labels):
        f_normed = F.normalize(feats, dim=1)
        logits = self.similarities(f_normed) / self.t
        pos = (labels[:, None] == self.bank_labels[None, :]).float()
        log_prob = logits - torch.logsumexp(logits, dim=1, keepdim=True)
        loss = -(log_prob * pos).sum(1) / pos.sum(1).clamp(min=1.0)
        self._enqueue(f_normed.detach(), labels)
        return loss.mean()


class InfoNCEGraphNoDetach(InfoNCEGraph):
    """What the author had first: the bank tensor itself is saved by einsum."""

    def similarities(self, f_normed):
        return torch.einsum("nc,mc->nm", f_normed, self.bank)
