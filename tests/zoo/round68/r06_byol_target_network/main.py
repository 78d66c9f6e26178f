"""
expect: none
dynamic: dismiss
source: https://github.com/lucidrains/byol-pytorch/blob/master/byol_pytorch/byol_pytorch.py

Contrastive self-supervision (BYOL). The online network plus predictor regress the
projection that a momentum (EMA) copy of the network produces for the other view of
the same image. The target branch runs under torch.no_grad() and its outputs are
detached in place; the target's parameters have requires_grad switched off and are
only moved by the exponential moving average. Looks like a cut gradient, but the
stop-gradient on the target is exactly what BYOL prescribes; the loss still reaches
every online and predictor parameter. The projector uses ReLU(inplace=True) right
after BatchNorm1d, which is safe because BatchNorm does not save its output. The
asserts show: all online/predictor parameters get non-zero gradients, target ones
get none, the EMA moves the target, and the loss falls over a short training run.
"""
import torch
from torch import nn

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from byol import BYOL

torch.manual_seed(0)
torch.set_num_threads(1)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    backbone = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 24))
    learner = BYOL(backbone, feat_dim=24)
    trainable = list(learner.online.parameters()) + list(learner.predictor.parameters())
    opt = torch.optim.SGD(trainable, lr=0.05, momentum=0.9)

    data = torch.randn(64, 12)
    target_before = [p.clone() for p in learner.target.parameters()]

    losses = []
    for step in range(60):
        loss = learner(augment(data), augment(data))
        opt.zero_grad()
        loss.backward()
        if step == 0:
            for name, p in list(learner.online.named_parameters()) + list(learner.predictor.named_parameters()):
                assert p.grad is not None and p.grad.abs().sum() > 0, name
            for p in learner.target.parameters():
                assert p.grad is None
        opt.step()
        learner.update_target()
        losses.append(loss.item())

    moved = any(not torch.equal(a, b) for a, b in zip(target_before, learner.target.parameters()))
    assert moved, "EMA must move the target network"
    first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
    print(f"BYOL loss {first:.4f} -> {last:.4f}")
    assert last < first
    print("OK: stop-gradient target branch; online network trains")


if __name__ == "__main__":
    main()
