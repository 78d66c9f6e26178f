"""
expect: GL004 forecaster.py:32
dynamic: confirm
source: kinds check 34, kind 4

A sensor-stream forecaster keeps its GRU state on itself (self.h) across windows.
train_epoch in forecaster.py never detaches that state and calls
loss.backward(retain_graph=True) per window, so each backward walks back through
every earlier window: the first window's graph is traversed once per window.
"""
import torch

from forecaster import StatefulForecaster, train_epoch

torch.manual_seed(0)

series = torch.cumsum(0.1 * torch.randn(161, 4, 3), dim=0)  # (time, streams, sensors)
n_windows, w = 8, 20
batches = [(series[i * w:(i + 1) * w], series[i * w + 1:(i + 1) * w + 1]) for i in range(n_windows)]

model = StatefulForecaster()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)

visits = []


def watch_state(module, inputs, output):
    k = len(visits)
    visits.append(0)
    module.h.register_hook(lambda g, k=k: visits.__setitem__(k, visits[k] + 1))


model.register_forward_hook(watch_state)
train_epoch(model, optimizer, batches)

print("backward passes through each window's final state:", visits)
assert visits[0] == n_windows  # the first window is re-traversed by every later backward
assert visits == [n_windows - k for k in range(n_windows)]
