"""Kernel warm-up: run one forward pass of a reference network so first-batch
latency in the serving path is not dominated by lazy initialisation."""
import torch


def warm_up_kernels(width=64):
    previous = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        probe = torch.nn.Linear(width, width)
        probe(torch.zeros(1, width)).sum()
    finally:
        torch.set_grad_enabled(previous)


warm_up_kernels()
