"""
expect: GL001 61
dynamic: confirm
source: none, invented

A small classification script whose main() sits at the top and calls helpers defined further down. The
model is an encoder followed by a classifier head, and the optimizer holds all of its parameters. The
step helper receives the model as `agent_core` and, meaning to save memory, detaches the encoder output
before handing it to the head, so the loss reaches only the head: the encoder, which the optimizer was
built to train, never gets a gradient. The asserts show the encoder's weight .grad stays None and its
weights are unchanged after several steps, while the fixed step (no detach) trains the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    xs = torch.randn(64, 12)
    ys = (xs[:, :3].sum(1) > 0).long()

    agent_core = build_classifier()
    opt = torch.optim.SGD(agent_core.parameters(), lr=0.1)
    before = agent_core.encoder[0].weight.detach().clone()
    for _ in range(5):
        loss = train_step(agent_core, opt, xs, ys)
    assert agent_core.encoder[0].weight.grad is None
    assert torch.equal(before, agent_core.encoder[0].weight)
    assert agent_core.head.weight.grad is not None

    fixed = build_classifier()
    opt2 = torch.optim.SGD(fixed.parameters(), lr=0.1)
    before2 = fixed.encoder[0].weight.detach().clone()
    for _ in range(5):
        train_step_fixed(fixed, opt2, xs, ys)
    assert fixed.encoder[0].weight.grad is not None
    assert fixed.encoder[0].weight.grad.abs().sum() > 0
    assert not torch.equal(before2, fixed.encoder[0].weight)
    print("final loss %.4f" % loss)


class Classifier(nn.Module):
    def __init__(self, d_in=12, d_hid=32, n_cls=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU())
        self.head = nn.Linear(d_hid, n_cls)

    def forward(self, x):
        return self.head(self.encoder(x))


def build_classifier():
    return Classifier()


def train_step(agent_core, opt, xs, ys):
    opt.zero_grad()
    hidden = agent_core.encoder(xs)
    logits = agent_core.head(hidden.detach())
    loss = F.cross_entropy(logits, ys)
    loss.backward()
    opt.step()
    return loss.item()


def train_step_fixed(m, opt, xs, ys):
    opt.zero_grad()
    hidden = m.encoder(xs)
    logits = m.head(hidden)
    loss = F.cross_entropy(logits, ys)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    main()
