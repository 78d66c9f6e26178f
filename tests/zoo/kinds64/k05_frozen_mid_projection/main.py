"""
expect: GL001 model.py:16
dynamic: confirm
source: none, invented

TabularNet in model.py puts a fixed random-feature projection between a learned stem and the classifier head,
and the author wrapped the projection call in torch.no_grad() to keep it fixed. That also cuts the graph, so
the stem, which comes before the projection and is handed to the optimizer by the Trainer below, never gets a
gradient; only the head learns. The asserts show the stem's grads are None and its weights unchanged after
training, while a fixed model that keeps the projection frozen with requires_grad_(False) instead trains the
stem.
"""
import torch
import torch.nn as nn

from model import TabularNet

torch.manual_seed(0)
torch.set_num_threads(1)


class FixedProjectionNet(TabularNet):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.projection.requires_grad_(False)

    def forward(self, x):
        return self.head(self.projection(self.stem(x)))


class Trainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def fit(self, x, y, epochs=30):
        self.model.train()
        for _ in range(epochs):
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()
        return loss.item()


def make_data(n=200):
    x = torch.randn(n, 10)
    y = (x[:, 0] * x[:, 1] > 0).long()
    return x, y


def stem_report(model_cls):
    torch.manual_seed(0)
    model = model_cls()
    before = model.stem[0].weight.detach().clone()
    Trainer(model).fit(*make_data())
    return model.stem[0].weight.grad, not torch.equal(before, model.stem[0].weight)


if __name__ == "__main__":
    grad, moved = stem_report(TabularNet)
    assert grad is None and not moved, "stem should be starved of gradient by the no_grad block"

    grad, moved = stem_report(FixedProjectionNet)
    assert grad is not None and grad.abs().sum() > 0 and moved
    print("ok: no_grad around the projection starves the stem; requires_grad_(False) fix trains it")
