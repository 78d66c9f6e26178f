"""
expect: none
dynamic: dismiss
source: https://github.com/agadetsky/pytorch-pl-variance-reduction/issues/1

Training an encoder with discrete Bernoulli latents through the RELAX estimator. The
estimator works on logits.detach().requires_grad_(True), a fresh leaf, so that its own
autograd.grad calls (score function and control-variate derivatives) stop at the logits
instead of running into the encoder. The reporter asked whether that detach stops the
encoder from learning. It does not: the estimator returns g, an estimate of the gradient of
E[f(b)] with respect to the logits, and the training loop pushes it into the encoder with
logits.backward(g); the control variate is trained separately on the variance proxy
(g ** 2).mean(), which is differentiable in its parameters thanks to create_graph=True. The
asserts check that the estimate is unbiased against the exact gradient (enumerating all
2**D outcomes), that logits.backward(g) gives the encoder exactly the chain-rule gradient,
that the control variate receives gradients, and that the expected loss falls in training.
"""
import itertools

import torch
import torch.nn as nn
from torch.distributions import Bernoulli

from estimators import relax, to_b, to_z

torch.manual_seed(0)
torch.set_num_threads(1)

D = 4
control_variate = nn.Sequential(nn.Linear(D, 16), nn.Tanh(), nn.Linear(16, 1))


def f(b, target):
    return ((b - target) ** 2).sum(-1, keepdim=True)


# 1) unbiasedness of the estimate for one logits vector
logits0 = torch.tensor([0.3, -1.0, 1.5, 0.0], requires_grad=True)
target0 = torch.tensor([1.0, 1.0, 0.0, 0.0])
outcomes = torch.tensor(list(itertools.product([0.0, 1.0], repeat=D)))
exact_obj = (Bernoulli(logits=logits0).log_prob(outcomes).sum(-1).exp() * f(outcomes, target0).squeeze(-1)).sum()
exact_grad, = torch.autograd.grad(exact_obj, logits0)
N = 40000
logits_n = logits0.detach().expand(N, D)
z = to_z(logits_n)
b = to_b(z)
g = relax(f(b, target0), b, logits_n, z, control_variate, torch.rand(N, D))
assert torch.allclose(g.mean(0), exact_grad, atol=0.05), (g.mean(0), exact_grad)

# 2) training: the encoder learns through logits.backward(g)
encoder = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, D))
opt_enc = torch.optim.Adam(encoder.parameters(), lr=1e-2)
opt_c = torch.optim.Adam(control_variate.parameters(), lr=1e-2)
x = torch.randn(256, 8)
target = (x[:, :D] > 0).float()


def expected_loss():
    with torch.no_grad():
        p = torch.sigmoid(encoder(x))
        return (p * (1 - target) + (1 - p) * target).sum(-1).mean().item()


start = expected_loss()
for it in range(150):
    logits = encoder(x)
    z = to_z(logits)
    b = to_b(z)
    g = relax(f(b, target), b, logits, z, control_variate, torch.rand_like(logits))
    opt_enc.zero_grad()
    logits.backward(g.detach())
    if it == 0:
        chain = torch.autograd.grad((encoder(x) * g.detach()).sum(), list(encoder.parameters()))
        assert all(p.grad.abs().sum() > 0 for p in encoder.parameters())
        assert all(torch.allclose(p.grad, c_) for p, c_ in zip(encoder.parameters(), chain))
    opt_enc.step()
    opt_c.zero_grad()
    (g ** 2).mean().backward()
    assert all(p.grad is not None for p in control_variate.parameters())
    opt_c.step()
end = expected_loss()
assert end < 0.5 * start, (start, end)
print(f"expected loss {start:.3f} -> {end:.3f}")
