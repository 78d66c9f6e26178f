"""
expect: GL005 sampler.py:19, GL005 main.py:32
dynamic: confirm
source: https://github.com/piEsposito/blitz-bayesian-deep-learning/pull/21

A Bayesian siamese network: one Bayes-by-backprop layer embeds both inputs of a pair, and every
forward pass samples new weights w = mu + sigma(rho) * eps. The sampler keeps eps in a buffer and
refills it in place. With eps_w.normal_() the second branch's resampling bumped the version of the
eps that the first branch's product sigma * eps had saved, and backward raised the in-place error;
the linked pull request "fixed" it by refilling eps_w.data instead. Now no error is raised, but the
first branch's saved eps silently holds the second branch's noise, so the gradient of rho (the
posterior scale) is wrong while the gradient of mu is unaffected. The asserts compare both
gradients with a reference built from fresh noise tensors drawn from the same random stream, and
show that the pre-fix sampler (kept in main.py, the same in-place edit without .data) raises.
"""
import torch
import torch.nn.functional as F

from sampler import BayesianLinear, GaussianVariational


class FreshNoiseSampler(GaussianVariational):
    def sample(self):
        eps = torch.empty_like(self.mu).normal_()  # same draws, a new tensor each time
        self.sigma = torch.log1p(torch.exp(self.rho))
        self.w = self.mu + self.sigma * eps
        return self.w


class InPlaceNoiseSampler(GaussianVariational):
    def sample(self):
        self.eps_w.normal_()  # the code before the pull request
        self.sigma = torch.log1p(torch.exp(self.rho))
        self.w = self.mu + self.sigma * self.eps_w
        return self.w


def contrastive(a, b, same, margin=1.0):
    d = F.pairwise_distance(a, b)
    return (same * d.pow(2) + (1 - same) * F.relu(margin - d).pow(2)).mean()


def siamese_grads(layer, x1, x2, same, seed):
    layer.zero_grad()
    torch.manual_seed(seed)
    e1 = layer(x1)
    e2 = layer(x2)
    contrastive(e1, e2, same).backward()
    s = layer.weight_sampler
    return s.mu.grad.clone(), s.rho.grad.clone()


torch.manual_seed(0)
torch.set_num_threads(1)
x1, x2 = torch.randn(16, 10), torch.randn(16, 10)
same = torch.randint(0, 2, (16,)).float()

buggy = BayesianLinear(10, 6)
reference = BayesianLinear(10, 6, sampler_cls=FreshNoiseSampler)
reference.load_state_dict(buggy.state_dict())

mu_b, rho_b = siamese_grads(buggy, x1, x2, same, seed=7)
mu_r, rho_r = siamese_grads(reference, x1, x2, same, seed=7)
assert torch.allclose(mu_b, mu_r, atol=1e-6), "mu path does not go through eps"
assert not torch.allclose(rho_b, rho_r, atol=1e-4), "rho gradient used the wrong noise"
rel = ((rho_b - rho_r).norm() / rho_r.norm()).item()
assert rel > 0.05

# the pre-fix version raises instead
loud = BayesianLinear(10, 6, sampler_cls=InPlaceNoiseSampler)
loud.load_state_dict(buggy.state_dict())
raised = False
try:
    siamese_grads(loud, x1, x2, same, seed=7)
except RuntimeError as err:
    raised = "inplace operation" in str(err)
assert raised
print("mu grads agree; rho grad off by %.0f%% relative to fresh-noise reference" % (100 * rel))
