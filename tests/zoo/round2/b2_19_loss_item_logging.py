"""expect: none
source: https://github.com/pytorch/pytorch/pull/5251

The PyTorch FAQ added in this PR warns that accumulating `total_loss += loss`
across iterations keeps every iteration's graph alive, and recommends
accumulating a Python number instead. This training loop follows that advice:
it logs `loss.item()` into a running total and a history list after calling
backward on the tensor loss, so the model still trains normally.
"""
import torch
import torch.nn as nn


class Logger:
    def __init__(self):
        self.history = []
        self.total = 0.0

    def record(self, loss):
        value = loss.item()
        self.total += value
        self.history.append(value)


def train(model, criterion, opt, data, logger):
    for x, y in data:
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        logger.record(loss)
    return logger.total / len(data)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
    logger = Logger()
    before = model.weight.detach().clone()
    avg = train(model, nn.MSELoss(), opt, data, logger)
    assert isinstance(avg, float)
    assert model.weight.grad.abs().sum() > 0
    assert not torch.equal(before, model.weight.detach())
    print("ok: logging with .item() does not affect training")
