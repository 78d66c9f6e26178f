"""
expect: none
dynamic: dismiss
source: none, invented

A small trainer class for tabular regression (synthetic house prices). `run_epoch(batches, is_train)`
passes its `is_train` flag on to both `predict`, which switches the model to eval mode and runs it under
`torch.no_grad()` when not training, and `update`, which returns immediately when not training and
otherwise calls `loss.requires_grad_(True)`, `backward` and the optimizer step. Every call hands the same
flag to both methods, so `requires_grad_` is only reached for a loss that was built with grad enabled, where
it changes nothing, and the validation pass neither builds a graph nor updates. The asserts show the
training loss falls and the weights move during training epochs, while a validation epoch leaves the
weights identical and produces a loss without a graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.last_loss = None

    def predict(self, x, is_train):
        if is_train:
            self.model.train()
            return self.model(x)
        self.model.eval()
        with torch.no_grad():
            return self.model(x)

    def update(self, loss, is_train):
        if not is_train:
            return
        loss.requires_grad_(True)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def run_epoch(self, batches, is_train):
        total = 0.0
        for x, y in batches:
            pred = self.predict(x, is_train)
            loss = F.mse_loss(pred.squeeze(-1), y)
            self.update(loss, is_train)
            self.last_loss = loss
            total += loss.item()
        return total / len(batches)


def make_houses(n=512):
    area = torch.rand(n) * 3 + 0.5
    rooms = torch.randint(1, 6, (n,)).float()
    age = torch.rand(n) * 50
    price = 1.5 * area + 0.3 * rooms - 0.01 * age + 0.1 * torch.randn(n)
    x = torch.stack([area, rooms / 5, age / 50], dim=1)
    return [(x[i:i + 64], price[i:i + 64]) for i in range(0, n, 64)]


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))
    trainer = Trainer(model)
    train_batches, val_batches = make_houses(), make_houses(128)
    first = trainer.run_epoch(train_batches, is_train=True)
    for _ in range(15):
        last = trainer.run_epoch(train_batches, is_train=True)
    assert last < 0.5 * first
    assert trainer.last_loss.grad_fn is not None

    snapshot = [p.detach().clone() for p in model.parameters()]
    trainer.run_epoch(val_batches, is_train=False)
    assert all(torch.equal(a, p.detach()) for a, p in zip(snapshot, model.parameters()))
    assert trainer.last_loss.grad_fn is None
    print("k10: train epochs learn, validation epochs leave the model alone")
