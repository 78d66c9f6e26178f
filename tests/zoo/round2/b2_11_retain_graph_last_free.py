"""expect: none
source: https://github.com/GBLin5566/toward-controlled-generation-of-text-pytorch/issues/9

A controlled text-generation model backpropagates several losses that share
the encoder graph, one after another. As the reporter suggested for the
memory blow-up, the graph is retained only for the backward calls before the
last one, and the final backward frees it, so nothing is kept alive across
training iterations while every loss still reaches the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(10, 6)
        self.recon = nn.Linear(6, 10)
        self.attr = nn.Linear(6, 2)

    def forward(self, x):
        z = torch.tanh(self.encoder(x))
        return self.recon(z), self.attr(z)


def train_step(model, opt, x, labels):
    recon, attr_logits = model(x)
    losses = [F.mse_loss(recon, x), F.cross_entropy(attr_logits, labels)]
    opt.zero_grad()
    for j, loss in enumerate(losses):
        loss.backward(retain_graph=j < len(losses) - 1)
    opt.step()
    return losses[-1]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, labels = torch.randn(8, 10), torch.randint(0, 2, (8,))
    for _ in range(3):
        last = train_step(model, opt, x, labels)
    assert model.encoder.weight.grad.abs().sum() > 0
    try:
        last.backward()
    except RuntimeError as err:
        assert "second time" in str(err)
    else:
        raise AssertionError("graph should have been freed")
    print("ok: graph freed by the last backward, encoder trained")
