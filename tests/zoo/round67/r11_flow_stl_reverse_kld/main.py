"""
expect: none
dynamic: dismiss
source: https://github.com/VincentStimper/normalizing-flows/blob/18a72e9d60b5307afdf619b2e448aab9ebaaf346/normflows/core.py

Normalizing flows, variational inference with a flow as q. The normflows library trains
a flow against an unnormalised target by minimising the reverse KL. With
score_fn=False (the "sticking the landing" / path-derivative estimator) it re-evaluates
log q(z) on the drawn sample while the flow parameters are switched to
requires_grad=False, and the DReG alpha-divergence additionally uses importance weights
taken through .detach(). Both look like cutting the loss off the parameters, but they are
intended stop-gradients: the gradient still reaches every parameter through the sample
path z(theta) = flow(eps), and only the zero-mean score term is removed. flows.py here
re-implements that pattern for a Gaussian base plus affine layers. The asserts show that
every parameter gets a non-zero gradient from both estimators, that the path-derivative
gradient matches the exact gradient of the closed-form KL on average, and that training
with it drives the true KL between q and a Gaussian target close to zero.
"""
import torch

from flows import AffineLayer, DiagGaussian, GaussianTarget, NormalizingFlow

torch.manual_seed(0)
torch.set_num_threads(1)

DIM = 2
target = GaussianTarget(torch.tensor([[1.5, -0.5]]), torch.tensor([[0.7, 1.3]]))


def build_flow():
    q0 = DiagGaussian(DIM)
    return NormalizingFlow(q0, [AffineLayer(DIM), AffineLayer(DIM)], target)


def exact_kl(model):
    """KL(q || p) in closed form: q is Gaussian because all layers are affine."""
    mean = model.q0.loc
    log_std = model.q0.log_scale
    for f in model.flows:
        mean = mean * torch.exp(f.s) + f.t
        log_std = log_std + f.s
    var_q = torch.exp(2 * log_std)
    var_p = target.std ** 2
    kl = torch.log(target.std) - log_std + (var_q + (mean - target.mean) ** 2) / (2 * var_p) - 0.5
    return kl.sum()


model = build_flow()

# 1) Every parameter receives a gradient from the STL estimator.
model.zero_grad()
loss = model.reverse_kld(num_samples=256, score_fn=False)
loss.backward()
for name, p in model.named_parameters():
    assert p.grad is not None, name
    assert p.grad.abs().sum() > 0, name
    assert p.requires_grad, name   # the freeze is undone after re-evaluation

# 2) On average the STL gradient equals the gradient of the exact KL.
params = [p for p in model.parameters()]
model.zero_grad()
exact = torch.autograd.grad(exact_kl(model), params)
acc = [torch.zeros_like(p) for p in params]
n_rep = 100
for _ in range(n_rep):
    g = torch.autograd.grad(model.reverse_kld(num_samples=64, score_fn=False), params)
    acc = [a + gi / n_rep for a, gi in zip(acc, g)]
for a, e in zip(acc, exact):
    assert torch.allclose(a, e, rtol=0.15, atol=0.15), (a, e)

# 3) DReG alpha divergence with detached weights also reaches every parameter.
model.zero_grad()
model.reverse_alpha_div_dreg(num_samples=256).backward()
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name

# 4) Training with the STL estimator fits the target.
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
kl_start = exact_kl(model).item()
for step in range(400):
    opt.zero_grad()
    model.reverse_kld(num_samples=128, score_fn=False).backward()
    opt.step()
kl_end = exact_kl(model).item()
print(f"exact KL before {kl_start:.4f} after {kl_end:.4f}")
assert kl_start > 0.5
assert kl_end < 0.02
print("OK: the frozen re-evaluation and detached weights are intended; the flow trains")
