import torch


class EmbeddingQueue:
    """Holds embeddings from earlier batches; they are only ever used as constants."""

    def __init__(self, size, dim):
        self.buffer = torch.zeros(size, dim)
        self.filled = 0

    def contents(self):
        return self.buffer[: self.filled]

    def push(self, emb):
        emb = emb.detach()
        n = emb.shape[0]
        self.buffer = torch.cat([emb, self.buffer[:-n]], dim=0)
        self.filled = min(self.filled + n, self.buffer.shape[0])
