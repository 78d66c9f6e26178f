"""Autograd derivative helpers and the 1-D Poisson residual for the PINN trainer."""
import torch


def derivative(f, x):
    """df/dx with a 'safe' fallback that never raises."""
    if not f.requires_grad:
        # nothing upstream to differentiate: treat the derivative as zero
        return torch.zeros_like(f)
    if not x.requires_grad:
        x = x.clone().detach().requires_grad_(True)
    grad = torch.autograd.grad(
        f, x, grad_outputs=torch.ones_like(f), create_graph=True, allow_unused=True
    )[0]
    if grad is None:
        grad = torch.zeros_like(f)
    return grad


def poisson_residual(u, x, source):
    """Residual of u'' = source at the collocation points."""
    u_x = derivative(u, x)
    u_xx = derivative(u_x, x)
    return u_xx - source
