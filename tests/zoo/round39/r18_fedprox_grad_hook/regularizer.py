import torch


def snapshot_server(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def weight_decay(model, lamb):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.add_(p.data, alpha=lamb)
    return model


def fedprox(model, mu, server_weight):
    # gradient of mu/2 * ||w - w_server||^2 added by hand after backward()
    for name, p in model.named_parameters():
        p.grad.add_((p.data - server_weight[name].data).mul(mu))
    return model
