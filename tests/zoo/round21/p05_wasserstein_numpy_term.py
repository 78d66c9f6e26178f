"""
expect: GL002 57
dynamic: confirm
source: https://github.com/scipy/scipy/issues/21978

A user added the average scipy.stats.wasserstein_distance between each predicted row and
its target row to an MSE regression loss (inputs made with .detach().cpu().numpy()) and
believed the term changed training. The term is a NumPy number folded back into the torch
loss, so it shifts the loss value but carries no gradient. This program trains a small
tabular regressor the same way (a NumPy 1-D Wasserstein distance stands in for scipy's).
The asserts show the parameter gradients are bit-identical with and without the term, and
that a torch implementation of the same distance does change them.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def wasserstein_distance(u_values, v_values):
    """1-D Wasserstein-1 between two equal-size empirical samples (scipy.stats stand-in)."""
    return float(np.mean(np.abs(np.sort(u_values) - np.sort(v_values))))


def wasserstein_torch(u, v):
    return (torch.sort(u, dim=1).values - torch.sort(v, dim=1).values).abs().mean(dim=1)


class RegressionModel(nn.Module):
    def __init__(self, n_in=10, n_out=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, n_out))

    def forward(self, x):
        return self.net(x)


criterion = nn.MSELoss()
x_all = torch.randn(64, 10)
y_all = torch.randn(64, 6).cumsum(dim=1)


def train_step(model, x_batch, y_batch, use_wsd, torch_wsd=False):
    model.zero_grad()
    predictions = model(x_batch)
    if not use_wsd:
        loss = criterion(predictions, y_batch)
    elif torch_wsd:
        loss = criterion(predictions, y_batch) + wasserstein_torch(predictions, y_batch).mean()
    else:
        vec1_np = predictions.detach().cpu().numpy()
        vec2_np = y_batch.detach().cpu().numpy()
        wsd_list = [wasserstein_distance(vec1_np[i], vec2_np[i]) for i in range(vec1_np.shape[0])]
        average_wsd = sum(wsd_list) / len(wsd_list)
        loss = criterion(predictions, y_batch) + average_wsd
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


model = RegressionModel()
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
for epoch in range(3):
    for i in range(0, 64, 16):
        train_step(model, x_all[i:i + 16], y_all[i:i + 16], use_wsd=True)
        opt.step()

xb, yb = x_all[:16], y_all[:16]
l_with, g_with = train_step(model, xb, yb, use_wsd=True)
l_without, g_without = train_step(model, xb, yb, use_wsd=False)
assert l_with > l_without + 1e-3, "the Wasserstein term is visible in the loss"
assert all(torch.equal(a, b) for a, b in zip(g_with, g_without)), "but not in the gradient"

_, g_torch = train_step(model, xb, yb, use_wsd=True, torch_wsd=True)
assert not torch.allclose(g_torch[-1], g_without[-1]), "a torch distance does reach the weights"
print("ok: NumPy Wasserstein term adds", round(l_with - l_without, 4), "and no gradient")
