"""
expect: GL004 41
dynamic: confirm
source: https://github.com/ecmwf/anemoi-core/issues/419

The anemoi issue asks why the forecaster keeps the whole autograd graph for a
multi-step rollout and proposes calling backward() after every rollout step to
save memory. Done naively (below), each step's loss.backward(retain_graph=True)
runs while the predicted state is fed to the next step without detach, so every
backward walks back through all earlier steps and their graphs stay alive: no
memory is saved and the backward work grows with the step index. The asserts
count how many times gradient reaches the first step's output (once per later rollout
step instead of once) and show the retained graph still holds step 0.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Stepper(nn.Module):
    def __init__(self, n=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, 32), nn.Tanh(), nn.Linear(32, n))

    def forward(self, x):
        return x + 0.1 * self.net(x)


class Forecaster:
    def __init__(self, model, rollout=6):
        self.model = model
        self.rollout = rollout
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.first_pred = None

    def rollout_step(self, x, truth):
        y = self.model(x)
        loss = ((y - truth) ** 2).mean()
        loss.backward(retain_graph=True)
        return y, loss.detach()

    def training_step(self, x0, truths, probe=None):
        self.opt.zero_grad()
        x = x0
        total = 0.0
        for k in range(self.rollout):
            x, l = self.rollout_step(x, truths[k])
            if k == 0 and probe is not None:
                x.register_hook(probe)
                self.first_pred = x
            total += float(l)
        self.opt.step()
        return total


model = Stepper()
fc = Forecaster(model)
x0 = torch.randn(4, 8)
truths = [torch.randn(4, 8) for _ in range(fc.rollout)]

hits = []
fc.training_step(x0, truths, probe=lambda g: hits.append(1))
# gradient reached step 0's output once per rollout step: O(rollout^2) backward work
assert len(hits) == fc.rollout - 1, len(hits)  # every later step re-walks step 0
# and the graph of step 0 is still alive after the loop (nothing was freed)
assert fc.first_pred.grad_fn is not None
node = fc.first_pred.grad_fn
assert node.next_functions  # saved graph still reachable

# reference: one backward through the summed rollout loss touches step 0 once
hits2 = []
model2 = Stepper()
model2.load_state_dict(model.state_dict())
x = x0
loss = 0.0
for k in range(fc.rollout):
    x = model2(x)
    if k == 0:
        x.register_hook(lambda g: hits2.append(1))
    loss = loss + ((x - truths[k]) ** 2).mean()
loss.backward()
assert len(hits2) == 1
print("ok: step-0 output was backpropagated", len(hits), "times instead of 1")
