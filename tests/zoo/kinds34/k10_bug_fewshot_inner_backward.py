"""
expect: GL004 33
dynamic: confirm
source: kinds check 34, kind 5

Few-shot regression with a meta-learned inner step size: fast weights w are
carried across inner steps with history. Each step calls
step_loss.backward(retain_graph=True) and reads w.grad, so every backward walks
the whole unroll back to the first step (and leaks into the meta-parameter).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
DIM, STEPS = 6, 12

log_alpha = nn.Parameter(torch.tensor(-2.0))
w_init = nn.Parameter(torch.zeros(DIM))


def make_task():
    w_true = torch.randn(DIM)
    X = torch.randn(20, DIM)
    return X, X @ w_true


def inner_loop(X, y, visits):
    w = w_init * 1.0
    meta_loss = 0.0
    for t in range(STEPS):
        w.retain_grad()
        step_loss = ((X @ w - y) ** 2).mean()
        step_loss.backward(retain_graph=True)
        meta_loss = meta_loss + step_loss
        w = w - log_alpha.exp() * w.grad
        if t == 0:
            w.register_hook(lambda grad: visits.append(1))
    return meta_loss + ((X @ w - y) ** 2).mean()


X, y = make_task()
visits = []
meta_loss = inner_loop(X, y, visits)
leaked = log_alpha.grad.clone()  # filled by the inner backwards before any meta backward
meta_loss.backward()

print(f"state after step 0 traversed {len(visits)}x for {STEPS} steps; leaked meta-grad {leaked.item():.3f}")
# steps 1..STEPS-1 each re-traverse it, plus the meta backward: grows with the unroll length
assert len(visits) == STEPS
assert leaked.abs() > 0
