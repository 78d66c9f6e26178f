"""
expect: GL002 29
dynamic: confirm
source: kind 8

A matrix-factorisation recommender is trained on random user-item ratings. With the
compact_loss option on, a helper rebuilds the loss as torch.tensor(loss.item(),
requires_grad=True), a new leaf with no history, before backward; backward then succeeds
but never reaches the embeddings, so their .grad is None and the weights are unchanged.
With the option off the same training step changes the embeddings.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MatrixFactorisation(nn.Module):
    def __init__(self, users=50, items=40, dim=8):
        super().__init__()
        self.users = nn.Embedding(users, dim)
        self.items = nn.Embedding(items, dim)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, u, i):
        return (self.users(u) * self.items(i)).sum(-1) + self.bias


def as_scalar(loss):
    return torch.tensor(loss.item(), requires_grad=True)


def fit(compact_loss, steps=3):
    torch.manual_seed(0)
    model = MatrixFactorisation()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    u = torch.randint(0, 50, (256,))
    i = torch.randint(0, 40, (256,))
    rating = torch.randint(1, 6, (256,)).float()
    before = model.users.weight.clone()
    for _ in range(steps):
        loss = F.mse_loss(model(u, i), rating)
        if compact_loss:
            loss = as_scalar(loss)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, before


def main():
    model, before = fit(compact_loss=True)
    assert model.users.weight.grad is None
    assert torch.equal(model.users.weight, before)
    model, before = fit(compact_loss=False)
    assert not torch.equal(model.users.weight, before)
    print("ok: with the option on, the rebuilt loss trained nothing")


if __name__ == "__main__":
    main()
