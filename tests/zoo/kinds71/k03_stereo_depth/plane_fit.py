"""
expect: GL002 plane_fit.py:18, GL002 plane_fit.py:20
dynamic: confirm
source: none, invented

Geometry helper for a stereo-depth head: from five scalars predicted by the network it packs a 2x2 normal-equation
matrix and a 2-vector, then solves for plane-slope parameters. Both the matrix and the vector are packed with
torch.tensor([...]) from lists of the predicted scalars, each followed by `.requires_grad = True`. That builds
new leaf tensors with no history: the solve is differentiable w.r.t. these throwaway leaves, but nothing flows
back to the network that produced the numbers. Training on a loss of the solution leaves the network unchanged.
This is a bug (twice).
"""
import torch


def solve_plane_slopes(preds):
    a, b, c, d, e = [p for p in preds[:5]]
    A = torch.tensor([[a, b], [b, c]])
    A.requires_grad = True
    rhs = torch.tensor([d, e])
    rhs.requires_grad = True
    ridge = torch.eye(2)
    return torch.linalg.solve(A @ A.T + ridge, rhs)
