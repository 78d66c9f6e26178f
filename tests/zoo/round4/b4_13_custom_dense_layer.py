"""expect: GL001 25
dynamic: confirm
source: https://github.com/d2l-ai/d2l-en/pull/2600

A hand-written dense layer (the "custom layers" tutorial pattern) with its own
weight and bias Parameters, used as the hidden layer of a regression MLP whose
output layer is a stock nn.Linear. The custom forward multiplies by
`self.weight.data` and adds `self.bias.data`; `.data` hands autograd a tensor
with no history, so the layer's parameters are treated as constants. Training
runs without complaint because the stock output layer still gets gradients, but
the custom layer's weight and bias never receive a gradient and never move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units) * 0.3)
        self.bias = nn.Parameter(torch.zeros(units))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


def make_net():
    return nn.Sequential(MyLinear(6, 16), nn.Linear(16, 1))


def main():
    torch.manual_seed(0)
    X = torch.randn(64, 6)
    y = (X ** 2).sum(dim=1, keepdim=True)
    net = make_net()
    trainer = torch.optim.SGD(net.parameters(), lr=0.01)
    hidden_before = net[0].weight.detach().clone()
    for _ in range(30):
        loss = F.mse_loss(net(X), y)
        trainer.zero_grad()
        loss.backward()
        trainer.step()

    assert net[1].weight.grad is not None
    assert net[0].weight.grad is None and net[0].bias.grad is None
    assert torch.equal(net[0].weight.detach(), hidden_before)
    print("custom hidden layer frozen by .data; only the output layer trained")


if __name__ == "__main__":
    main()
