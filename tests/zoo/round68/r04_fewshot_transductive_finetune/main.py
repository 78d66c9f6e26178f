"""
expect: GL001 methods.py:65
dynamic: confirm
source: https://github.com/sicara/easy-few-shot-learning/issues/55

Few-shot learning (prototypical networks and transductive fine-tuning). The user follows
the classical/episodic training recipe and swaps PrototypicalNetworks for
TransductiveFinetuning. That method fine-tunes only the prototypes at inference time:
it freezes the backbone and returns its query scores with .detach(). The training loop
then computes the cross-entropy on those detached scores and calls backward, which
fails with "element 0 of tensors does not require grad and does not have a grad_fn";
nothing of the backbone can be trained through this forward. The asserts catch that
error on the default path and then show that the same loop with PrototypicalNetworks,
whose scores stay attached to the backbone, drives the episode loss down and gives the
backbone gradients.
"""
import torch
from torch import nn

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from methods import PrototypicalNetworks, TransductiveFinetuning

torch.manual_seed(0)
torch.set_num_threads(1)

N_WAY, N_SHOT, N_QUERY, DIM = 5, 3, 4, 16
CLASS_MEANS = torch.randn(20, DIM) * 2.0


def sample_episode():
    classes = torch.randperm(20)[:N_WAY]
    def draw(n):
        x = CLASS_MEANS[classes].repeat_interleave(n, 0) + torch.randn(N_WAY * n, DIM)
        y = torch.arange(N_WAY).repeat_interleave(n)
        return x, y
    return draw(N_SHOT) + draw(N_QUERY)


def make_backbone():
    return nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, 8))


def training_epoch(model, optimizer, episodes):
    criterion = nn.CrossEntropyLoss()
    losses = []
    model.train()
    for _ in range(episodes):
        sx, sy, qx, qy = sample_episode()
        model.process_support_set(sx, sy)
        loss = criterion(model(qx), qy)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def main():
    backbone = make_backbone()
    model = TransductiveFinetuning(backbone)
    optimizer = torch.optim.Adam(backbone.parameters(), lr=1e-3)
    try:
        training_epoch(model, optimizer, 1)
        raise AssertionError("expected backward through detached scores to fail")
    except RuntimeError as err:
        assert "does not require grad" in str(err), err
        print("TransductiveFinetuning in training:", err)

    backbone = make_backbone()
    model = PrototypicalNetworks(backbone)
    optimizer = torch.optim.Adam(backbone.parameters(), lr=3e-3)
    losses = training_epoch(model, optimizer, 150)
    assert backbone[0].weight.grad is not None
    first, last = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
    print(f"PrototypicalNetworks episode loss {first:.3f} -> {last:.3f}")
    assert last < 0.7 * first


if __name__ == "__main__":
    main()
