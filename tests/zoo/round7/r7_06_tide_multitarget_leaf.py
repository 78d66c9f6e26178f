"""expect: GL003 46
dynamic: confirm
source: https://github.com/sktime/pytorch-forecasting/pull/2208

TiDE (time-series dense encoder) in pytorch-forecasting: on the
multi-target path the per-target predictions were post-processed with
`[i.clone().detach().requires_grad_(True) for i in prediction]`. The pull
request explains it: detach() disconnects each prediction from the encoder /
decoder graph and requires_grad_(True) just makes a new leaf, so backward()
runs without complaint but no parameter of the model gets a gradient and
multivariate TiDE cannot learn. The single-target path (no such line)
trains fine. Fix: drop .detach() (or the whole requires_grad_ dance).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualDense(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_out)
        self.skip = nn.Linear(d_in, d_out)
        self.norm = nn.LayerNorm(d_out)

    def forward(self, x):
        return self.norm(self.fc2(F.relu(self.fc1(x))) + self.skip(x))


class TiDENet(nn.Module):
    def __init__(self, lookback, horizon, n_targets, hidden=32):
        super().__init__()
        self.horizon, self.n_targets = horizon, n_targets
        self.encoder = ResidualDense(lookback * n_targets, hidden, hidden)
        self.decoder = ResidualDense(hidden, hidden, horizon * n_targets)
        self.lookback_skip = nn.Linear(lookback * n_targets, horizon * n_targets)

    def forward(self, history):                       # history: (B, lookback, n_targets)
        flat = history.flatten(1)
        out = self.decoder(self.encoder(flat)) + self.lookback_skip(flat)
        out = out.view(-1, self.horizon, self.n_targets)
        if self.n_targets == 1:
            return out[..., 0]
        prediction = [out[..., k] for k in range(self.n_targets)]
        prediction = [i.clone().detach().requires_grad_(True) for i in prediction]
        return prediction


def multi_target_loss(prediction, target):
    if torch.is_tensor(prediction):
        return F.l1_loss(prediction, target[..., 0])
    return sum(F.l1_loss(p, target[..., k]) for k, p in enumerate(prediction))


def training_step(model, optimizer, history, future):
    optimizer.zero_grad()
    prediction = model(history)
    loss = multi_target_loss(prediction, future)
    loss.backward()
    optimizer.step()
    return prediction


torch.manual_seed(0)
history, future = torch.randn(8, 24, 2), torch.randn(8, 6, 2)

multi = TiDENet(lookback=24, horizon=6, n_targets=2)
opt = torch.optim.Adam(multi.parameters(), lr=1e-3)
preds = training_step(multi, opt, history, future)
assert all(p.grad is not None for p in preds)          # backward did run (into the new leaves)
assert all(p.grad is None for p in multi.parameters())  # ... but reached no model weight

single = TiDENet(lookback=24, horizon=6, n_targets=1)   # control: univariate path
opt1 = torch.optim.Adam(single.parameters(), lr=1e-3)
training_step(single, opt1, history[..., :1], future[..., :1])
assert all(p.grad is not None for p in single.parameters())
print("OK")
