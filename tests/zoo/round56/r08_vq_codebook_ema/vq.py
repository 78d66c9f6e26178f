import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantize(nn.Module):
    """Codebook updated by exponential moving averages instead of by gradients."""

    def __init__(self, dim, codebook_size, decay=0.8, commitment=1.0, eps=1e-5):
        super().__init__()
        self.dim, self.n_embed = dim, codebook_size
        self.decay, self.commitment, self.eps = decay, commitment, eps
        embed = torch.randn(dim, codebook_size)
        self.register_buffer("embed", embed)
        self.register_buffer("cluster_size", torch.zeros(codebook_size))
        self.register_buffer("embed_avg", embed.clone())

    @staticmethod
    def ema_inplace(moving_avg, new, decay):
        moving_avg.data.mul_(decay).add_(new, alpha=1 - decay)

    @staticmethod
    def laplace_smoothing(x, n, eps):
        return (x + eps) / (x.sum() + n * eps)

    def forward(self, x):
        flat = x.reshape(-1, self.dim)
        dist = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.embed + self.embed.pow(2).sum(0, keepdim=True)
        _, idx = (-dist).max(1)
        onehot = F.one_hot(idx, self.n_embed).type(flat.dtype)
        quantize = F.embedding(idx.view(*x.shape[:-1]), self.embed.t())

        if self.training:
            self.ema_inplace(self.cluster_size, onehot.sum(0), self.decay)
            self.ema_inplace(self.embed_avg, flat.t() @ onehot, self.decay)
            n = self.cluster_size.sum()
            cluster = self.laplace_smoothing(self.cluster_size, self.n_embed, self.eps) * n
            self.embed.data.copy_(self.embed_avg / cluster.unsqueeze(0))

        commit = F.mse_loss(quantize.detach(), x) * self.commitment
        quantize = x + (quantize - x).detach()  # straight-through estimator
        probs = onehot.mean(0)
        perplexity = torch.exp(-(probs * torch.log(probs + 1e-10)).sum())
        return quantize, commit, perplexity
