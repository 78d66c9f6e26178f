"""
expect: none
dynamic: dismiss
source: https://github.com/lessw2020/Ranger21/issues/8

The report: Ranger21's `step()` is decorated with `@torch.no_grad()` and evaluated the
optional closure inside `with torch.grad():`, which does not exist on PyTorch 1.8; the fix
(and the current code) re-enables autograd for the closure with `torch.enable_grad()`. So
the optimizer's update runs without recording, while the closure it calls - which runs the
model forward and `loss.backward()` - records and backpropagates normally. This is the
standard closure pattern of torch.optim, not a backward hidden inside a caller's no_grad.
This program implements a compact Ranger-style optimizer (Adam moments + gradient
centralisation + lookahead) with that step/closure structure and fits a tabular regression
model with `optimizer.step(closure)`; the asserts show the closure's backward fills the
gradients, every parameter moves, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RangerLite(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-8, k=5, alpha=0.5):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, k=k, alpha=alpha))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if grad.dim() > 1:                                   # gradient centralisation
                    grad = grad - grad.mean(dim=tuple(range(1, grad.dim())), keepdim=True)
                st = self.state[p]
                if not st:
                    st["step"], st["m"], st["v"] = 0, torch.zeros_like(p), torch.zeros_like(p)
                    st["slow"] = p.detach().clone()
                st["step"] += 1
                st["m"].mul_(b1).add_(grad, alpha=1 - b1)
                st["v"].mul_(b2).addcmul_(grad, grad, value=1 - b2)
                m_hat = st["m"] / (1 - b1 ** st["step"])
                v_hat = st["v"] / (1 - b2 ** st["step"])
                p.addcdiv_(m_hat, v_hat.sqrt().add_(group["eps"]), value=-group["lr"])
                if st["step"] % group["k"] == 0:                      # lookahead
                    st["slow"].add_(p - st["slow"], alpha=group["alpha"])
                    p.copy_(st["slow"])
        return loss


def table(n=256):
    X = torch.randn(n, 6)
    y = X[:, 0] * 2 - X[:, 1] * X[:, 2] + 0.5 * torch.sin(X[:, 3] * 3) + 0.05 * torch.randn(n)
    return X, y


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    init = {k: v.clone() for k, v in model.state_dict().items()}
    optimizer = RangerLite(model.parameters(), lr=1e-2)
    X, y = table()
    losses = []
    for _ in range(80):
        def closure():
            optimizer.zero_grad()
            loss = F.mse_loss(model(X).squeeze(-1), y)
            loss.backward()
            return loss
        losses.append(optimizer.step(closure).item())
    assert all(p.grad is not None for p in model.parameters())
    assert all(not torch.equal(v, init[k]) for k, v in model.state_dict().items())
    assert losses[-1] < 0.3 * losses[0], (losses[0], losses[-1])
    print(f"OK: closure backward under enable_grad trains the model; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
