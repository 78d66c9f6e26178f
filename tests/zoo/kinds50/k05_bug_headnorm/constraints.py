import torch


def damp_leading_rows(weight, factor=0.5):
    """Shrink the first two output rows of a weight matrix (keeps two logits tame)."""
    s = weight.narrow(0, 0, 2)
    s.mul_(factor)
    return weight
