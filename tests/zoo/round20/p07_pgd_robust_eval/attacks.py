"""Projected gradient descent attack used to measure robust error."""
import torch
import torch.nn as nn


def _pgd(model, X, y, epsilon, niters=10, alpha=0.02):
    out = model(X)
    err = (out.argmax(1) != y).float().sum()
    X_pgd = X.clone().requires_grad_(True)
    for _ in range(niters):
        loss = nn.CrossEntropyLoss()(model(X_pgd), y)
        loss.backward()
        eta = alpha * X_pgd.grad.sign()
        X_pgd = X_pgd.detach() + eta
        # project back into the epsilon ball around X
        X_pgd = X + torch.clamp(X_pgd - X, -epsilon, epsilon)
        X_pgd.requires_grad_(True)
    err_pgd = (model(X_pgd).argmax(1) != y).float().sum()
    return err, err_pgd
