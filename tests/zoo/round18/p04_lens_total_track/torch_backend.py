"""Array backend used by the lens-design code when the torch backend is selected.
Mirrors the numpy API so optical code can be written once."""
import torch


def array(x):
    return torch.as_tensor(x, dtype=torch.float64)


def cumsum(x):
    return torch.cumsum(x, dim=0)


def max(x):
    return x.detach().max().item()


def min(x):
    return x.detach().min().item()


def relu(x):
    return torch.clamp(x, min=0.0)
