"""Stand-in for loading pretrained word vectors from disk.

Builds deterministic "pretrained" vectors in which a few sentiment words carry signal,
round-trips them through a serialised checkpoint like the real loader does.
"""
import io

import torch


def pretrained_vectors(vocab_size=200, dim=24, seed=7):
    g = torch.Generator().manual_seed(seed)
    vectors = 0.1 * torch.randn(vocab_size, dim, generator=g)
    vectors[:20, 0] += 1.0   # positive words
    vectors[20:40, 0] -= 1.0  # negative words
    buf = io.BytesIO()
    torch.save({"vectors": vectors}, buf)
    buf.seek(0)
    return torch.load(buf)["vectors"]
