"""expect: none
dynamic: none
source: https://github.com/d2l-ai/d2l-en/issues/2573

d2l's Trainer.fit_epoch calls loss.backward(), gradient clipping and optim.step() inside
a torch.no_grad() block, and an issue claimed this prevents gradient computation.  It
does not: the loss graph was recorded before the block, backward() ignores grad mode, and
the block only keeps the clipping arithmetic and the update out of the graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearRegression(nn.Module):
    def __init__(self, num_inputs):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(num_inputs, 8), nn.ReLU(), nn.Linear(8, 1))

    def loss(self, y_hat, y):
        return F.mse_loss(y_hat, y)

    def training_step(self, batch):
        X, y = batch
        return self.loss(self.net(X), y)


class Trainer:
    def __init__(self, max_epochs, gradient_clip_val=0.0):
        self.max_epochs = max_epochs
        self.gradient_clip_val = gradient_clip_val

    def prepare_batch(self, batch):
        return batch

    def clip_gradients(self, grad_clip_val, model):
        params = [p for p in model.parameters() if p.requires_grad]
        norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
        if norm > grad_clip_val:
            for param in params:
                param.grad[:] *= grad_clip_val / norm

    def fit(self, model, data):
        self.model = model
        self.train_dataloader = data
        self.optim = torch.optim.SGD(model.parameters(), lr=0.05)
        for self.epoch in range(self.max_epochs):
            self.fit_epoch()

    def fit_epoch(self):
        self.model.train()
        for batch in self.train_dataloader:
            loss = self.model.training_step(self.prepare_batch(batch))
            self.optim.zero_grad()
            with torch.no_grad():
                loss.backward()
                if self.gradient_clip_val > 0:
                    self.clip_gradients(self.gradient_clip_val, self.model)
                self.optim.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(64, 4)
    y = X @ torch.tensor([[2.0], [-1.0], [0.5], [3.0]]) + 0.1
    data = [(X[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    model = LinearRegression(4)
    first = model.training_step(data[0]).item()
    Trainer(max_epochs=5, gradient_clip_val=1.0).fit(model, data)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    last = model.training_step(data[0]).item()
    assert last < first
    print(f"loss {first:.3f} -> {last:.3f}: backward inside no_grad trains normally")
