"""Loss bookkeeping for the beta-VAE runs."""
import torch


def weighted_total(parts, weights):
    """Weighted sum of named loss parts, returned as one tensor for .backward()."""
    names = sorted(parts)
    values = torch.tensor([parts[k] for k in names], requires_grad=True)
    coeffs = torch.tensor([weights.get(k, 1.0) for k in names])
    return (coeffs * values).sum()


def weighted_total_v2(parts, weights):
    return sum(weights.get(k, 1.0) * v for k, v in parts.items())


def format_parts(parts):
    return " ".join("%s=%.4f" % (k, v.item() if torch.is_tensor(v) else v) for k, v in sorted(parts.items()))
