"""
expect: none
dynamic: dismiss
source: none, invented

One-step-ahead forecasting of a noisy multi-channel sensor stream with a two-layer stacked LSTMCell model whose
carried state is nested: ((h1, c1), (h2, c2)). The training loop walks the stream step by step, adds each
step's error to `window_loss`, and every `k` steps does `(window_loss / k).backward(retain_graph=True)`, an
optimizer step, and `window_loss = 0`; then the state is passed through the recursive helper `fresh`, which
detaches every tensor in the nested tuple. The next window therefore builds a new graph rooted at leaf state
tensors, so no backward ever walks into a graph whose weights the optimizer has since updated. The asserts show
a whole pass over the stream runs without error, every returned state tensor is a leaf, and the forecast
error drops well below the naive last-value baseline.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

CHANNELS, HIDDEN, K = 3, 48, 25


def fresh(h):
    return h.detach() if isinstance(h, torch.Tensor) else tuple(fresh(v) for v in h)


def make_stream(n=1201):
    t = torch.arange(n, dtype=torch.float32)
    base = torch.stack([torch.sin(t / 7), torch.cos(t / 11), torch.sin(t / 5 + 1.0)], dim=1)
    return base + 0.05 * torch.randn(n, CHANNELS)


class StackedForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.LSTMCell(CHANNELS, HIDDEN)
        self.l2 = nn.LSTMCell(HIDDEN, HIDDEN)
        self.readout = nn.Linear(HIDDEN, CHANNELS)

    def init_state(self, batch=1):
        z = lambda: torch.zeros(batch, HIDDEN)
        return ((z(), z()), (z(), z()))

    def forward(self, x, state):
        s1 = self.l1(x, state[0])
        s2 = self.l2(s1[0], state[1])
        return x + self.readout(s2[0]), (s1, s2)


def run_epoch(model, opt, stream):
    state = model.init_state()
    window_loss, errors = 0.0, []
    for t in range(len(stream) - 1):
        pred, state = model(stream[t:t + 1], state)
        step_err = F.mse_loss(pred, stream[t + 1:t + 2])
        window_loss = window_loss + step_err
        errors.append(step_err.item())
        if (t + 1) % K == 0:
            opt.zero_grad()
            (window_loss / K).backward(retain_graph=True)
            opt.step()
            window_loss = 0
            state = fresh(state)
    return state, errors


stream = make_stream()
model = StackedForecaster()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    state, errors = run_epoch(model, opt, stream)

naive = F.mse_loss(stream[:-1], stream[1:]).item()
late = sum(errors[-200:]) / 200
assert all(s.grad_fn is None and s.is_leaf for pair in state for s in pair)
assert all(p.grad is not None for p in model.parameters())
assert late < 0.5 * naive, (late, naive)
print(f"ok: forecaster MSE {late:.4f} vs naive {naive:.4f}")
