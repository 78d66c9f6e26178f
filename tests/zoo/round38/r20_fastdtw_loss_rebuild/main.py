"""
expect: GL002 losses.py:25
dynamic: confirm
source: https://github.com/slaypni/fastdtw/issues/63

A forecasting user wrapped FastDTW as a PyTorch loss module: the forecast and
target are turned into numpy arrays, the DTW distance is computed there, and
the float is rebuilt with `torch.tensor(distance, requires_grad=True)` so that
`backward()` runs. The rebuilt loss is a fresh leaf, so the forecaster never
gets a gradient and its weights never move. The asserts compare it with the
same recursion written in torch: equal distance values, but only the torch
version trains the model.
"""
import torch
import torch.nn as nn

from losses import DTWLoss, TorchDTWLoss

torch.manual_seed(0)
torch.set_num_threads(1)

LOOKBACK, HORIZON = 12, 6


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LOOKBACK, 32), nn.ReLU(), nn.Linear(32, HORIZON))

    def forward(self, window):
        return self.net(window)


t = torch.arange(0, 200, dtype=torch.float32)
series = torch.sin(t / 6) + 0.1 * torch.randn_like(t)
idx = torch.randint(0, len(series) - LOOKBACK - HORIZON, (16,))
x = torch.stack([series[i:i + LOOKBACK] for i in idx])
y = torch.stack([series[i + LOOKBACK:i + LOOKBACK + HORIZON] for i in idx])


def train(criterion, steps=4):
    torch.manual_seed(1)
    model = Forecaster()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    w0 = model.net[0].weight.detach().clone()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, w0, losses


model, w0, np_losses = train(DTWLoss())
assert model.net[0].weight.grad is None
assert torch.equal(w0, model.net[0].weight)
assert len(set(round(v, 6) for v in np_losses)) == 1  # the loss never moves

model2, w0_2, t_losses = train(TorchDTWLoss())
assert abs(np_losses[0] - t_losses[0]) < 1e-4  # same distance at step 0
assert model2.net[0].weight.grad.abs().sum() > 0
assert t_losses[-1] < t_losses[0]
print("ok", np_losses[0], t_losses[-1])
