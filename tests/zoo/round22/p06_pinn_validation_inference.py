"""
expect: GL003 70
dynamic: confirm
source: https://github.com/rezaakb/pinns-torch/issues/12

With a PINN library driven by a Lightning-style trainer, a user's model trained fine but
validation failed because the output function needs gradients of the network output
with respect to its inputs, and the trainer ran validation under inference mode
(the default); the fix was inference_mode=False. This program has a small trainer whose
validate loop runs under `torch.inference_mode()` and calls a validation_step that
builds the ODE residual with `torch.autograd.grad`. The asserts show training lowers the
loss, validation under inference mode raises, and the same validation under a no_grad
loop with enable_grad in the residual works.
"""
import math

import torch
import torch.nn as nn

torch.set_num_threads(1)


class DecayPINN(nn.Module):
    """Learns u(t) for u' = -k u, u(0) = 1."""

    def __init__(self, k=1.5):
        super().__init__()
        self.k = k
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, t):
        return self.net(t)

    def residual(self, t):
        with torch.enable_grad():
            t = t.clone().requires_grad_(True)
            u = self(t)
            du = torch.autograd.grad(u.sum(), t, create_graph=True)[0]
        return du + self.k * u

    def training_step(self, t):
        ic = (self(torch.zeros(1, 1)) - 1.0).pow(2).mean()
        return self.residual(t).pow(2).mean() + ic

    def validation_step(self, t):
        exact = torch.exp(-self.k * t)
        return {"res": self.residual(t).pow(2).mean(), "err": (self(t) - exact).abs().max()}


class MiniTrainer:
    def __init__(self, epochs=60):
        self.epochs = epochs

    def fit(self, model, t_train):
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        first = last = None
        for _ in range(self.epochs):
            loss = model.training_step(t_train)
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
            last = loss.item()
        return first, last

    def validate(self, model, t_val):
        model.eval()
        outs = []
        with torch.inference_mode():
            outs.append(model.validation_step(t_val))
        model.train()
        return outs


class NoGradTrainer(MiniTrainer):
    def validate(self, model, t_val):
        with torch.no_grad():
            return [model.validation_step(t_val)]


torch.manual_seed(0)
model = DecayPINN()
t_train = torch.rand(64, 1) * 2
first, last = MiniTrainer().fit(model, t_train)
assert last < first, "training itself works"

t_val = torch.linspace(0, 2, 20).unsqueeze(1)
try:
    MiniTrainer().validate(model, t_val)
    raise AssertionError("validation under inference_mode should not succeed")
except RuntimeError as err:
    assert "does not require grad" in str(err) or "inference" in str(err).lower(), err

outs = NoGradTrainer().validate(model, t_val)
assert math.isfinite(outs[0]["res"].item())
print("p06 ok: residual needing autograd.grad called inside inference_mode validation")
