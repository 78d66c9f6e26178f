"""
expect: none
dynamic: dismiss
source: https://github.com/heidekrueger/bnelearn/blob/master/bnelearn/optimizer.py

Evolution strategies (neuroevolution of bidding strategies). The ES optimizer learns a
bidding network for a first-price auction without backpropagation: rewards of perturbed
copies are evaluated in a `@torch.no_grad()` environment, the baseline may be rebuilt with
`torch.tensor(float(baseline))`, the pseudo-gradient is assembled from the noise vectors
and applied with `p.data.add_(d_p)`. None of this is an autograd bug: ES never calls
backward, rewards are black-box scalars, and the parameter update through `.data` is the
optimizer step itself. The asserts show that the ES-trained bidder approaches the optimal
bid-shading strategy b(v) = v/2 against a truthful opponent and that its utility rises,
with no `.grad` ever populated.
"""
from copy import deepcopy

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.optim.optimizer import Optimizer


class AuctionEnvironment:
    """Single-item first-price sealed-bid auction against a truthful opponent."""

    def __init__(self, batch_size=1024):
        self.batch_size = batch_size

    def prepare_iteration(self):
        self.valuations = torch.rand(self.batch_size, 1)
        self.opponent_bids = torch.rand(self.batch_size, 1)

    @torch.no_grad()
    def get_reward(self, model):
        bids = model(self.valuations)
        win = (bids > self.opponent_bids).float()
        return (win * (self.valuations - bids)).mean()


class ES(Optimizer):
    def __init__(self, model, environment, lr=0.5, sigma=0.05, n_perturbations=32, baseline=True):
        defaults = dict(lr=lr, sigma=sigma, n_perturbations=n_perturbations, baseline=baseline)
        super().__init__(model.parameters(), defaults)
        self.model = model
        self.environment = environment

    def _perturb_model(self, model):
        sigma = self.defaults["sigma"]
        perturbed = deepcopy(model)
        params_flat = parameters_to_vector(model.parameters())
        noise = torch.zeros_like(params_flat).normal_(mean=0.0, std=sigma)
        vector_to_parameters(params_flat + noise, perturbed.parameters())
        return perturbed, noise

    def step(self, closure=None):
        for group in self.param_groups:
            lr, sigma, n = group["lr"], group["sigma"], group["n_perturbations"]
            self.environment.prepare_iteration()
            baseline = group["baseline"]
            if baseline is True:
                baseline = self.environment.get_reward(self.model).view(1)
            else:
                baseline = torch.tensor(float(baseline))
            population = [self._perturb_model(self.model) for _ in range(n)]
            rewards = torch.stack([self.environment.get_reward(m).view(1) for m, _ in population])
            epsilons = torch.stack([eps for _, eps in population])
            weighted_noise = ((rewards - baseline) * epsilons).sum(dim=0)
            param_noise = deepcopy(group["params"])
            vector_to_parameters(weighted_noise, param_noise)
            for p, p_noise in zip(group["params"], param_noise):
                d_p = lr / n / sigma ** 2 * p_noise
                p.data.add_(d_p)
        self.environment.prepare_iteration()
        return -self.environment.get_reward(self.model)



torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(1, 10), nn.SELU(), nn.Linear(10, 1), nn.ReLU())
with torch.no_grad():
    model[2].bias.fill_(0.1)
env = AuctionEnvironment()
optimizer = ES(model, env, lr=0.02, sigma=0.05, n_perturbations=24)

v = torch.linspace(0, 1, 101).unsqueeze(1)


def dist_to_bne():
    with torch.no_grad():
        return ((model(v) - v / 2) ** 2).mean().item()


env.prepare_iteration()
u0, d0 = env.get_reward(model).item(), dist_to_bne()
for _ in range(100):
    loss = optimizer.step()
env.prepare_iteration()
u1, d1 = env.get_reward(model).item(), dist_to_bne()
assert d1 < 0.25 * d0, (d0, d1)
assert u1 > u0, (u0, u1)
assert all(p.grad is None for p in model.parameters())
print("ES bidder: utility %.4f -> %.4f, distance to v/2 %.4f -> %.4f" % (u0, u1, d0, d1))
