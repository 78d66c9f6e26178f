"""expect: none
dynamic: dismiss
source: https://github.com/fartashf/gvar_code/blob/master/optim/sgd.py

A hand-written momentum SGD: `step()` reads `p.grad.data`, keeps a momentum buffer in `self.state[p]`, and updates the weights in place through `p.data.add_(...)`. That is exactly what torch.optim does: the update runs after backward, when no graph holds the weights any more, and the next forward builds a fresh graph. The model trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MomentumSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.05, momentum=0.9):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad.data
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = d_p.clone()
                else:
                    state["buf"].mul_(group["momentum"]).add_(d_p)
                p.data.add_(state["buf"], alpha=-group["lr"])


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 20), nn.Tanh(), nn.Linear(20, 1))
opt = MomentumSGD(model.parameters())
x = torch.randn(128, 5)
y = (x[:, :1] * 2 - x[:, 1:2]).sin()
losses = []
for _ in range(50):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())

print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}")
assert losses[-1] < losses[0]
