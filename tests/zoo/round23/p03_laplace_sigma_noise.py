"""
expect: GL002 52
dynamic: confirm
source: https://github.com/aleximmer/Laplace/pull/212

In the laplace-torch library a type-hinting refactor wrapped the observation noise in
`torch.tensor(...)` inside `BaseLaplace.log_likelihood`, which copies the tensor and drops
its autograd history. Tuning `sigma_noise` by maximising the marginal likelihood then runs
without an error, but the Gaussian normaliser `-n*log(sigma*sqrt(2*pi))` no longer sends
any gradient to `log_sigma`, so the gradient is wrong and the noise runs away. This program
reproduces a last-layer Laplace for Bayesian regression: the asserts show that the gradient
of the buggy marginal likelihood differs from the analytic one, that `sigma_noise` grows far
past the true noise level, and that an `as_tensor` version recovers the noise level.
"""
import math
import warnings

import torch

torch.set_num_threads(1)
torch.manual_seed(0)
warnings.filterwarnings("ignore", category=UserWarning)


class BaseLaplace:
    """Last-layer Laplace approximation for a regression model with Gaussian noise."""

    def __init__(self, features, targets, prior_precision=1.0, sigma_noise=1.0):
        self.phi = features
        self.y = targets
        self.n_data, self.n_params = features.shape
        self.n_outputs = 1
        self.prior_precision = torch.as_tensor(prior_precision)
        self.sigma_noise = torch.as_tensor(sigma_noise)
        self.temperature = 1.0

    def fit(self):
        gram = self.phi.T @ self.phi
        ridge = gram + 1e-2 * torch.eye(self.n_params)
        self.mean = torch.linalg.solve(ridge, self.phi.T @ self.y)
        resid = self.y - self.phi @ self.mean
        self.loss = 0.5 * (resid ** 2).sum()
        self.H = gram  # Gauss-Newton Hessian of the loss w.r.t. the last layer

    @property
    def _H_factor(self):
        return 1.0 / self.sigma_noise.square() / self.temperature

    @property
    def log_likelihood(self):
        factor = -self._H_factor
        sigma = torch.tensor(self.sigma_noise)
        c = self.n_data * self.n_outputs * torch.log(sigma * math.sqrt(2 * math.pi))
        return factor * self.loss - c

    def log_marginal_likelihood(self, prior_precision=None, sigma_noise=None):
        if prior_precision is not None:
            self.prior_precision = prior_precision
        if sigma_noise is not None:
            self.sigma_noise = sigma_noise
        posterior_prec = self._H_factor * self.H + self.prior_precision * torch.eye(self.n_params)
        log_det_ratio = torch.logdet(posterior_prec) - self.n_params * torch.log(self.prior_precision)
        scatter = self.prior_precision * (self.mean ** 2).sum()
        return self.log_likelihood - 0.5 * (log_det_ratio + scatter)


class FixedLaplace(BaseLaplace):
    """The merged fix: `torch.as_tensor` keeps the graph back to sigma_noise."""

    @property
    def log_likelihood(self):
        factor = -self._H_factor
        sigma = torch.as_tensor(self.sigma_noise)
        c = self.n_data * self.n_outputs * torch.log(sigma * math.sqrt(2 * math.pi))
        return factor * self.loss - c


def tune_noise(la, epochs=300):
    log_prior = torch.zeros(1, requires_grad=True)
    log_sigma = torch.zeros(1, requires_grad=True)
    hyper_opt = torch.optim.Adam([log_prior, log_sigma], lr=0.05)
    for _ in range(epochs):
        hyper_opt.zero_grad()
        neg_marglik = -la.log_marginal_likelihood(log_prior.exp(), log_sigma.exp())
        neg_marglik.sum().backward()
        hyper_opt.step()
    return log_sigma.exp().item()


def build_data(n=200, d=8, noise=0.3):
    # features of a (pretend) trained network's penultimate layer
    phi = torch.tanh(torch.randn(n, d) @ torch.randn(d, d))
    w_true = torch.randn(d, 1)
    y = phi @ w_true + noise * torch.randn(n, 1)
    return phi, y


if __name__ == "__main__":
    phi, y = build_data()
    true_noise = 0.3

    # gradient at one point: buggy vs. correct marginal likelihood
    grads = []
    for cls in (BaseLaplace, FixedLaplace):
        la = cls(phi, y)
        la.fit()
        ls = torch.zeros(1, requires_grad=True)
        (-la.log_marginal_likelihood(torch.ones(1), ls.exp())).sum().backward()
        grads.append(ls.grad.item())
    print("d(-marglik)/d log_sigma  buggy %.2f  fixed %.2f" % tuple(grads))
    assert abs(grads[0] - grads[1]) > 50.0  # the n*log(sigma) term (n=200) is missing

    buggy = BaseLaplace(phi, y)
    buggy.fit()
    sigma_bug = tune_noise(buggy)
    fixed = FixedLaplace(phi, y)
    fixed.fit()
    sigma_fix = tune_noise(fixed)
    print("tuned sigma_noise  buggy %.3f  fixed %.3f  (true %.1f)" % (sigma_bug, sigma_fix, true_noise))
    assert abs(sigma_fix - true_noise) < 0.1
    assert sigma_bug > 3 * true_noise
    print("OK")
