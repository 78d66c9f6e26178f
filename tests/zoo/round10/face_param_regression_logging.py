"""
expect: none
dynamic: dismiss
source: https://github.com/cleardusk/3DDFA/issues/63

3DDFA issue #63 reports that with PyTorch 1.0.1 the validation code
`np.mean(losses)` over a list of loss tensors fails, and suggests
`torch.mean(torch.stack(losses))`; the maintainer answers that taking `.item()`
is fine there. This program follows that pattern for a 3DMM-parameter
regressor: the training loop logs `loss.item()` into an AverageMeter after
building the graph from the real loss tensor, and validation runs under
torch.no_grad() collecting `loss.item()` values averaged with NumPy. The values
that leave the graph are only used for logging and metrics, never rebuilt into
a tensor that is trained through. The asserts check that every parameter gets
a gradient each step, that training loss goes down, and that the validation
metric is a plain float that also improves.
"""
import numpy as np
import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train_epoch(model, loader, criterion, optimizer):
    meter = AverageMeter()
    model.train()
    for images, params in loader:
        loss = criterion(model(images), params)
        meter.update(loss.item(), images.size(0))
        optimizer.zero_grad()
        loss.backward()
        assert all(p.grad is not None for p in model.parameters())
        optimizer.step()
    return meter.avg


def validate(model, loader, criterion):
    model.eval()
    with torch.no_grad():
        losses = [criterion(model(images), params).item() for images, params in loader]
    return float(np.mean(losses))


def make_loader(n_batches, w_true):
    batches = []
    for _ in range(n_batches):
        x = torch.randn(16, 20)
        batches.append((x, x @ w_true + 0.01 * torch.randn(16, 6)))
    return batches


def main():
    torch.manual_seed(0)
    w_true = torch.randn(20, 6)
    train_loader, val_loader = make_loader(10, w_true), make_loader(3, w_true)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 6))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    val_start = validate(model, val_loader, criterion)
    history = [train_epoch(model, train_loader, criterion, optimizer) for _ in range(15)]
    val_end = validate(model, val_loader, criterion)
    assert isinstance(val_end, float)
    assert history[-1] < 0.5 * history[0]
    assert val_end < 0.5 * val_start
    print("logging with .item() leaves training intact: %.3f -> %.3f" % (history[0], history[-1]))


if __name__ == "__main__":
    main()
