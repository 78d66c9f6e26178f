"""
expect: none
dynamic: dismiss
source: https://github.com/JavierAntoran/Bayesian-Neural-Networks/blob/49a02f188ba08d1069f33859f5caf0be6622f3cd/src/Bayes_By_Backprop/model.py

A Bayes-by-Backprop classifier: each Bayesian linear layer keeps a mean and a softplus-scale parameter
per weight and samples W = mu + std * eps on every forward pass; the loss is the negative
log-likelihood plus the sampled KL estimate log q(W) - log p(W). The noise is drawn with
`Variable(self.W_mu.data.new(self.W_mu.size()).normal_())`: `.data` is used only to borrow the dtype
and device for a fresh standard-normal tensor, which is meant to be a constant, so nothing that should
be trained is cut. The network also applies ReLU(inplace=True) to the sum `X @ W + b`, which no
backward function saved. The asserts show both the means and the scale parameters receiving non-zero
gradients and moving, and the ELBO loss decreasing.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


def gauss_loglike(x, mu, sigma):
    return (-0.5 * math.log(2 * math.pi) - torch.log(sigma) - 0.5 * ((x - mu) / sigma) ** 2).sum()


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out, prior_sigma=0.1):
        super().__init__()
        self.prior_sigma = prior_sigma
        self.W_mu = nn.Parameter(torch.empty(n_in, n_out).uniform_(-0.1, 0.1))
        self.W_p = nn.Parameter(torch.empty(n_in, n_out).uniform_(-3, -2))
        self.b_mu = nn.Parameter(torch.empty(n_out).uniform_(-0.1, 0.1))
        self.b_p = nn.Parameter(torch.empty(n_out).uniform_(-3, -2))

    def forward(self, X):
        eps_W = Variable(self.W_mu.data.new(self.W_mu.size()).normal_())
        eps_b = Variable(self.b_mu.data.new(self.b_mu.size()).normal_())
        std_w = 1e-6 + F.softplus(self.W_p)
        std_b = 1e-6 + F.softplus(self.b_p)
        W = self.W_mu + std_w * eps_W
        b = self.b_mu + std_b * eps_b
        out = torch.mm(X, W) + b.unsqueeze(0).expand(X.shape[0], -1)
        prior = torch.tensor(self.prior_sigma)
        lqw = gauss_loglike(W, self.W_mu, std_w) + gauss_loglike(b, self.b_mu, std_b)
        lpw = gauss_loglike(W, torch.zeros(()), prior) + gauss_loglike(b, torch.zeros(()), prior)
        return out, lqw, lpw


class BayesMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.bfc1 = BayesLinear(8, 32)
        self.bfc2 = BayesLinear(32, 3)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        h, lqw1, lpw1 = self.bfc1(x)
        h = self.act(h)
        out, lqw2, lpw2 = self.bfc2(h)
        return out, lqw1 + lqw2, lpw1 + lpw2


torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(128, 8)
y = (x[:, 0] > 0).long() + (x[:, 1] > 1).long()

model = BayesMLP()
before = {n: p.detach().clone() for n, p in model.named_parameters()}
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for step in range(150):
    opt.zero_grad()
    out, lqw, lpw = model(x)
    loss = F.cross_entropy(out, y, reduction="sum") + (lqw - lpw) / 10
    loss.backward()
    if step == 0:
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    losses.append(loss.item())

moved = {n: (p.detach() - before[n]).abs().max().item() for n, p in model.named_parameters()}
assert all(v > 1e-3 for v in moved.values()), moved
assert sum(losses[-10:]) < sum(losses[:10])
print("ELBO loss %.1f -> %.1f; scale params moved %.3f" % (losses[0], losses[-1], moved["bfc1.W_p"]))
