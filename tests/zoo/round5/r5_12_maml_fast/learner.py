import torch
import torch.nn as nn
import torch.nn.functional as F


class FunctionalMLP(nn.Module):
    """Sinusoid regressor that can run with an explicit list of (fast) weights."""

    def __init__(self, hidden=40):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(hidden, 1) * 0.5)
        self.b1 = nn.Parameter(torch.zeros(hidden))
        self.w2 = nn.Parameter(torch.randn(1, hidden) * 0.1)
        self.b2 = nn.Parameter(torch.zeros(1))

    def forward(self, x, weights=None):
        w1, b1, w2, b2 = weights if weights is not None else list(self.parameters())
        return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)


def adapt(model, x_support, y_support, inner_lr):
    """One inner-loop SGD step on the support set; returns the fast weights."""
    weights = list(model.parameters())
    support_loss = F.mse_loss(model(x_support, weights), y_support)
    grads = torch.autograd.grad(support_loss, weights)
    with torch.no_grad():
        fast_weights = [w - inner_lr * g for w, g in zip(weights, grads)]
    return fast_weights
