"""
expect: none
dynamic: dismiss
source: kinds check 42, kind 4

A matrix-factorisation rating model for a toy recommender. rarity_weights copies
the predicted ratings to NumPy (.detach().cpu().numpy()), bins them with a
histogram and writes an inverse-frequency weight for each prediction into a
NumPy array (arr[i] = ...), returning torch.from_numpy(arr). The caller uses that
tensor only as constant per-sample weights on the attached squared errors, and
logs its spread as a metric (rating_spread, also NumPy-based). The asserts show
the weights carry no graph, the weighted loss requires grad and gives nonzero
gradients to both embedding tables, and training lowers the loss.
"""
import numpy as np
import torch
import torch.nn as nn


class RatingModel(nn.Module):
    def __init__(self, users=50, items=80, dim=8):
        super().__init__()
        self.user = nn.Embedding(users, dim)
        self.item = nn.Embedding(items, dim)
        self.bias = nn.Parameter(torch.tensor(3.0))

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(dim=1) + self.bias


def rarity_weights(predictions, bins=10):
    preds = predictions.detach().cpu().numpy()
    counts, edges = np.histogram(preds, bins=bins)
    which = np.clip(np.digitize(preds, edges[1:-1]), 0, bins - 1)
    weights = np.empty_like(preds)
    for idx, b in enumerate(which):
        weights[idx] = 1.0 / counts[b]
    weights *= len(preds) / weights.sum()
    return torch.from_numpy(weights)


def rating_spread(predictions):
    ordered = np.sort(predictions.detach().cpu().numpy())
    lo, hi = ordered[int(0.1 * len(ordered))], ordered[int(0.9 * len(ordered)) - 1]
    return float(hi - lo)


def main():
    torch.manual_seed(41)
    gen = torch.Generator().manual_seed(42)
    n = 2000
    users = torch.randint(0, 50, (n,), generator=gen)
    items = torch.randint(0, 80, (n,), generator=gen)
    taste_u, taste_i = torch.randn(50, 3, generator=gen), torch.randn(80, 3, generator=gen)
    ratings = (3.0 + (taste_u[users] * taste_i[items]).sum(1)).clamp(1.0, 5.0)

    model = RatingModel()
    opt = torch.optim.Adam(model.parameters(), lr=0.03)
    before = [p.detach().clone() for p in model.parameters()]
    history = []
    for step in range(150):
        opt.zero_grad()
        pred = model(users, items)
        w = rarity_weights(pred)
        assert not w.requires_grad
        loss = (w * (pred - ratings).pow(2)).mean()
        assert loss.requires_grad
        loss.backward()
        if step == 0:
            assert model.user.weight.grad.abs().sum() > 0 and model.item.weight.grad.abs().sum() > 0
        opt.step()
        history.append((loss.item(), rating_spread(pred)))

    assert any(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
    assert history[-1][0] < 0.3 * history[0][0], (history[0], history[-1])
    print(f"weighted loss {history[0][0]:.3f} -> {history[-1][0]:.3f}; "
          f"spread {history[-1][1]:.2f}")


if __name__ == "__main__":
    main()
