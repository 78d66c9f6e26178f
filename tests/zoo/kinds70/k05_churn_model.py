"""
expect: GL005 32
dynamic: confirm
source: none, invented

A tabular churn classifier with a separate, plain-Python `ColumnReweighter` (not an nn.Module) that holds a
learnable per-column weight tensor created with `torch.randn(..., requires_grad=True)` and its own SGD optimizer.
Each call stores the reweighting loss it computed; `refresh()` backpropagates that stored loss (retaining the
graph) and steps its optimizer, which updates the weight tensor in place. The training loop calls `refresh()`
BEFORE the backward of a total loss that includes the same stored loss, whose graph saved the weight tensor; the
in-place step bumps its version and the total backward fails with "modified by an inplace operation". Bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ColumnReweighter:
    def __init__(self, n_cols, lr=0.05):
        self.weights = torch.randn(n_cols, requires_grad=True)
        self.opt = torch.optim.SGD([self.weights], lr=lr)
        self.last_loss = None

    def __call__(self, x):
        scaled = x * self.weights
        self.last_loss = 1e-2 * (scaled @ self.weights).pow(2).mean()
        return scaled

    def refresh(self):
        self.opt.zero_grad()
        self.last_loss.backward(retain_graph=True)
        self.opt.step()


def main():
    torch.manual_seed(0)
    n_cols = 12
    reweighter = ColumnReweighter(n_cols)
    clf = nn.Sequential(nn.Linear(n_cols, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(clf.parameters(), lr=1e-3)

    x = torch.randn(128, n_cols)
    churned = (torch.rand(128) > 0.7).float()
    logits = clf(reweighter(x)).squeeze(-1)
    task = F.binary_cross_entropy_with_logits(logits, churned)

    reweighter.refresh()
    total = task + reweighter.last_loss
    opt.zero_grad()
    try:
        total.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("bug confirmed:", str(err).splitlines()[0][:100])
    else:
        raise AssertionError("expected the in-place RuntimeError")


if __name__ == "__main__":
    main()
