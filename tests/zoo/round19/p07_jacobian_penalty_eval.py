"""
expect: GL003 52
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/69217

The reporter's loss includes the norm of the model's input Jacobian, computed with
torch.autograd.grad, and "when I use with torch.no_grad() there's always an error in
validation". This program rebuilds a tabular regression trainer whose objective adds a
Jacobian (smoothness) penalty computed by autograd inside the loss method, and whose
`evaluate` is decorated with @torch.no_grad() and reuses that same objective. Training works;
evaluation raises inside the penalty's autograd.grad because it runs under the caller's
no_grad. The asserts catch that error and show that computing the penalty under
torch.enable_grad() in evaluation gives the same value as in training mode, without touching the
weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class JacobianRegularizedRegressor:
    def __init__(self, in_dim=8, lam=0.1):
        self.model = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.lam = lam

    def jacobian_penalty(self, x):
        x = x.clone().requires_grad_(True)
        out = self.model(x)
        jac, = torch.autograd.grad(out.sum(), x, create_graph=True)
        return (jac ** 2).sum(1).mean(), out

    def objective(self, x, y):
        penalty, pred = self.jacobian_penalty(x)
        return F.mse_loss(pred.squeeze(1), y) + self.lam * penalty

    def fit(self, x, y, epochs=20):
        for _ in range(epochs):
            loss = self.objective(x, y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        total = 0.0
        for xb, yb in zip(x.split(32), y.split(32)):
            total += self.objective(xb, yb).item() * len(xb)
        self.model.train()
        return total / len(x)


x = torch.randn(128, 8)
y = x[:, 0] * 2 + torch.sin(x[:, 1])
reg = JacobianRegularizedRegressor()
train_loss = reg.fit(x, y)
w = reg.model[0].weight.detach().clone()

try:
    reg.evaluate(x, y)
    raise AssertionError("evaluation should fail inside the penalty")
except RuntimeError as e:
    assert "does not require grad" in str(e)
assert torch.equal(reg.model[0].weight, w)

# fixed variant: re-enable autograd locally for the penalty during evaluation
def evaluate_fixed(reg, x, y):
    with torch.no_grad():
        with torch.enable_grad():
            val = reg.objective(x, y)
        return val.item()

val = evaluate_fixed(reg, x, y)
assert abs(val - reg.objective(x, y).item()) < 1e-5
assert torch.equal(reg.model[0].weight, w)
print("p07 ok: the Jacobian penalty cannot run under the evaluator's no_grad")
