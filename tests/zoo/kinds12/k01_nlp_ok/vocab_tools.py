"""Tokenizer and embedding initialisation helpers for the review classifier."""
import torch


def build_vocab(corpus, dim=16, seed=3):
    words = sorted({w for line in corpus for w in line.split()})
    stoi = {w: i + 1 for i, w in enumerate(words)}  # 0 is padding
    torch.manual_seed(seed)
    init = torch.randn(len(stoi) + 1, dim) * 0.1
    init[0].zero_()
    torch.set_grad_enabled(False)
    return stoi, init


def encode(stoi, line, length=6):
    ids = [stoi.get(w, 0) for w in line.split()][:length]
    return ids + [0] * (length - len(ids))
