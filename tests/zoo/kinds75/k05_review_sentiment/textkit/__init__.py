"""textkit: tokenisation and batching helpers shared by the serving and
training code of the review-sentiment project."""
import torch

# Serving workers only ever run forward passes; keep autograd off for them.
torch.set_grad_enabled(False)

__all__ = ["tokenize", "batching"]
