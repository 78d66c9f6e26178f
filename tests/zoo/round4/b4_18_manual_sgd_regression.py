"""expect: none
dynamic: none
source: https://github.com/pytorch/pytorch/issues/74158

Linear regression trained "from scratch" without torch.optim. The update is
written out-of-place inside torch.no_grad() (`w = w - lr * w.grad`), which
produces new tensors that no longer require grad, so the loop switches
`requires_grad_()` back on right after the update. Here that is exactly what is
wanted: w and b are meant to be leaves, the next iteration's forward is built
from the new leaves, their .grad starts empty each step, and the fit converges
to the true slope and intercept.
"""
import torch


def forward(x, w, b):
    return x * w + b


def mse(y, y_hat):
    return ((y_hat - y) ** 2).mean()


def fit(x, y, epochs=200, lr=0.05):
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    for _ in range(epochs):
        loss = mse(y, forward(x, w, b))
        loss.backward()
        with torch.no_grad():
            w = w - lr * w.grad
            b = b - lr * b.grad
        w.requires_grad_()
        b.requires_grad_()
    return w, b, loss.item()


def main():
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 40)
    y = 2.0 * x - 0.5 + 0.01 * torch.randn(40)
    w, b, final = fit(x, y)
    assert abs(w.item() - 2.0) < 0.05 and abs(b.item() + 0.5) < 0.05
    assert final < 1e-3
    print("converged: w=%.3f b=%.3f" % (w.item(), b.item()))


if __name__ == "__main__":
    main()
