"""
expect: GL003 event_solver.py:16
dynamic: confirm
source: https://github.com/rtqichen/torchdiffeq/issues/179

Neural ODEs with terminal events. torchdiffeq's odeint_event evaluates the user's event
function inside torch.no_grad() (the values are only used to locate the sign change). A
user whose event function itself differentiates -- here a damped oscillator whose event
is the first zero of the force -dV/dq, with dV/dq obtained by torch.autograd.grad of the
potential -- gets "element 0 of tensors does not require grad and does not have a
grad_fn": a function that calls autograd.grad is run inside a no_grad region, where the
potential has no graph. event_solver.py reproduces the integrator with its no_grad
event evaluation; the maintainer's suggested fix is to open torch.enable_grad() inside
the event function. The asserts catch the error in the default path, then show that the
fixed event function finds the correct event time and that the learnable damping of the
ODE right-hand side, fitted on the trajectory up to the event, converges to the true
value.
"""
import math

import torch
import torch.nn as nn

from event_solver import odeint_event

torch.manual_seed(0)
torch.set_num_threads(1)

K_SPRING = 4.0


def potential(q):
    return 0.5 * K_SPRING * q ** 2


class DampedOscillator(nn.Module):
    def __init__(self, damping):
        super().__init__()
        self.log_c = nn.Parameter(torch.tensor(math.log(damping)))

    def forward(self, t, y):
        q, p = y[..., :1], y[..., 1:]
        return torch.cat([p, -K_SPRING * q - torch.exp(self.log_c) * p], dim=-1)


def force_zero_event(t, y):
    q = y[..., :1]
    dV = torch.autograd.grad(potential(q).sum(), y, create_graph=True)[0][..., :1]
    return dV.squeeze(-1)


def force_zero_event_fixed(t, y):
    with torch.enable_grad():
        q = y[..., :1]
        dV = torch.autograd.grad(potential(q).sum(), y, create_graph=True)[0][..., :1]
    return dV.squeeze(-1)


func = DampedOscillator(damping=0.3)
y0 = torch.tensor([[1.0, 0.0]], requires_grad=True)

raised = None
try:
    odeint_event(func, y0, 0.0, force_zero_event)
except RuntimeError as e:
    raised = str(e)
print("default event fn:", raised)
assert raised is not None and "does not require grad" in raised

# fixed: the event function re-enables grad; the event is the first crossing q = 0
t_event, states = odeint_event(func, y0, 0.0, force_zero_event_fixed)
omega = math.sqrt(K_SPRING - 0.3 ** 2 / 4)
t_true = (math.pi / 2 + math.atan(0.15 / omega)) / omega
print(f"event time {t_event:.3f} (analytic {t_true:.3f}), {len(states)} stored states")
assert abs(t_event - t_true) < 0.03

# fit the damping on the trajectory observed up to the event
with torch.no_grad():
    observed = torch.stack([s.detach() for s in states])
model = DampedOscillator(damping=0.05)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(60):
    opt.zero_grad()
    _, pred = odeint_event(model, y0, 0.0, force_zero_event_fixed)
    n = min(len(pred), len(observed))
    loss = ((torch.stack(pred[:n]) - observed[:n]) ** 2).mean()
    loss.backward()
    opt.step()
c_hat = torch.exp(model.log_c).item()
print(f"fitted damping {c_hat:.3f} (true 0.3), final loss {loss.item():.2e}")
assert abs(c_hat - 0.3) < 0.05
print("OK: autograd.grad inside the solver's no_grad region fails; enable_grad fixes it")
