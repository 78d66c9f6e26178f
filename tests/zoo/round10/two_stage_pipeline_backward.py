"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/pytorch/issues/8287

pytorch issue #8287 splits a network into two stages with
`h2 = h1.detach().requires_grad_()`, backpropagates the second stage's loss to
get `h2.grad`, and then continues the backward pass into the first stage with
`h1.backward(gradient=h2.grad)` (the answer in the thread only concerns where
the leaf tensor lives). This is the usual model-parallel / pipeline pattern:
the requires_grad_ switch on a detached tensor is deliberate, and the gradient
is carried across the cut by hand. This program implements it with a plain
PipelineTrainer whose stages are separate modules; the asserts show that every
parameter of both stages gets exactly the gradient of an end-to-end backward
through the unsplit model.
"""
import torch
import torch.nn as nn


class PipelineTrainer:
    def __init__(self, stage1, stage2):
        self.stage1, self.stage2 = stage1, stage2

    def backward_step(self, x, y):
        h1 = self.stage1(x)
        boundary = h1.detach().requires_grad_()
        loss = nn.functional.mse_loss(self.stage2(boundary), y)
        loss.backward()
        h1.backward(gradient=boundary.grad)
        return loss


def main():
    torch.manual_seed(0)
    stage1 = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 8))
    stage2 = nn.Sequential(nn.ReLU(), nn.Linear(8, 3))
    x, y = torch.randn(10, 6), torch.randn(10, 3)

    PipelineTrainer(stage1, stage2).backward_step(x, y)
    split = [p.grad.clone() for p in list(stage1.parameters()) + list(stage2.parameters())]

    for p in list(stage1.parameters()) + list(stage2.parameters()):
        p.grad = None
    nn.functional.mse_loss(stage2(stage1(x)), y).backward()
    joint = [p.grad for p in list(stage1.parameters()) + list(stage2.parameters())]

    assert all(g.abs().sum() > 0 for g in split)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(split, joint))
    print("split backward matches end-to-end gradients for both stages")


if __name__ == "__main__":
    main()
