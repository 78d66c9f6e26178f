import torch


class RunningStandardizer:
    """Keeps running statistics of embeddings and standardizes batches with them."""

    def __init__(self, dim, momentum=0.1, eps=1e-5):
        self.mean = torch.zeros(dim)
        self.var = torch.ones(dim)
        self.momentum = momentum
        self.eps = eps

    def update(self, batch):
        with torch.no_grad():
            self.mean.lerp_(batch.mean(0), self.momentum)
            self.var.lerp_(batch.var(0, unbiased=False), self.momentum)

    def standardize(self, emb):
        emb.sub_(self.mean).div_((self.var + self.eps).sqrt())
        return emb

    def standardized(self, emb):
        return (emb - self.mean) / (self.var + self.eps).sqrt()
