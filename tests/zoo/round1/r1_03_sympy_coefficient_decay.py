"""expect: none
dynamic: dismiss
source: https://github.com/patrick-kidger/sympytorch

SymPy numbers used beside PyTorch: a penalty weight kept as an exact `sympy.Rational` is decayed in place (`lam *= Rational(9, 10)`) and an integer order (`order += 1`) grows, then both enter the tensor loss as plain Python numbers. `float(lam)` converts a SymPy number, not a tensor, and nothing is rebuilt into a trained tensor; the parameters train.
"""
import sympy
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 50)
y = 3 * x ** 2 - x + 0.5
coef = torch.zeros(4, requires_grad=True)
opt = torch.optim.Adam([coef], lr=0.1)

lam = sympy.Rational(1, 2)
order = 1
first = None
for step in range(150):
    powers = torch.stack([x ** k for k in range(4)], dim=1)
    pred = powers[:, : order + 1] @ coef[: order + 1]
    penalty = coef.abs().sum()
    loss = ((pred - y) ** 2).mean() + float(lam) * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
    if step % 30 == 29:
        lam *= sympy.Rational(9, 10)
        order += 1 if order < 3 else 0

print("lam", lam, "order", order, f"loss {first:.3f} -> {loss.item():.3f}")
print("coef grad", coef.grad)
assert loss.item() < first and coef.grad.abs().sum() > 0
