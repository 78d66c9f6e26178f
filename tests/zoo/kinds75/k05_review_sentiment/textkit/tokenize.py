import zlib

import torch


class HashTokenizer:
    """Hashing-trick tokenizer: no vocabulary file needed."""

    def __init__(self, n_buckets=1000, max_len=24):
        self.n_buckets = n_buckets
        self.max_len = max_len

    def encode(self, text):
        ids = [zlib.crc32(w.encode()) % (self.n_buckets - 1) + 1 for w in text.lower().split()]
        ids = ids[: self.max_len]
        return ids + [0] * (self.max_len - len(ids))

    def encode_batch(self, texts):
        return torch.tensor([self.encode(t) for t in texts], dtype=torch.long)
