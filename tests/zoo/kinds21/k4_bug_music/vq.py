"""EMA vector quantizer for the music-token model (codebook kept as buffers)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CodebookEMA(nn.Module):
    def __init__(self, n_codes, dim, decay=0.95, eps=1e-5, tau=0.5):
        super().__init__()
        self.decay, self.eps, self.tau = decay, eps, tau
        init = torch.randn(n_codes, dim)
        self.register_buffer("codebook", init)
        self.register_buffer("cluster_size", torch.ones(n_codes))
        self.register_buffer("embed_sum", init.clone())

    def quantize(self, x, return_soft=False):
        d = x.pow(2).sum(1, keepdim=True) - 2 * x @ self.codebook.t() + self.codebook.pow(2).sum(1)
        codes = (-d).max(1)[1]
        quant = self.codebook[codes]
        if self.training:
            self._ema(x.detach(), codes)
        out = x + (quant - x).detach()
        commit = (x - quant).pow(2).mean()
        if return_soft:
            return out, codes, commit, F.softmax(-d / self.tau, dim=1)
        return out, codes, commit

    @torch.no_grad()
    def _ema(self, x, codes):
        onehot = F.one_hot(codes, self.codebook.shape[0]).type_as(x)
        self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
        self.embed_sum.mul_(self.decay).add_(onehot.t() @ x, alpha=1 - self.decay)
        n = self.cluster_size.sum()
        size = (self.cluster_size + self.eps) / (n + len(self.cluster_size) * self.eps) * n
        self.codebook.copy_(self.embed_sum / size[:, None])
