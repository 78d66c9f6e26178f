"""
expect: GL005 73
dynamic: confirm
source: https://github.com/dongminlee94/deep_rl/blob/8c8b1338d7dd3f3389c5b823847ec58e9559f3c2/agents/ppo.py

A PPO agent keeps a Gaussian policy and a separate value MLP, each with its own Adam. In the
mini-batch loop it adds the clipped surrogate and the clipped value loss into one
total_loss, back-propagates it with retain_graph=True, steps the value optimizer, and then
back-propagates the same total_loss again to step the policy optimizer. The value
optimizer's step rewrites the value network's weights in place while the retained graph
still holds them as saved tensors (a Linear layer keeps its weight to compute the gradient
of its input), so the second backward raises "modified by an inplace operation". The
asserts catch that RuntimeError and show that the usual update (one backward of the summed
loss, then both steps; or each loss backpropagated before any step) runs and moves both nets.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)

OBS, ACT, N, MB = 4, 2, 64, 16


def mlp(out_dim):
    return nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, out_dim))


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.mu = mlp(ACT)
        self.log_std = nn.Parameter(torch.zeros(ACT))

    def forward(self, obs, act):
        dist = Normal(self.mu(obs), self.log_std.exp())
        return dist.log_prob(act).sum(-1)


class PPOAgent:
    def __init__(self, clip=0.2, target_kl=0.05):
        self.policy = GaussianPolicy()
        self.vf = mlp(1)
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.vf_optimizer = torch.optim.Adam(self.vf.parameters(), lr=1e-3)
        self.clip, self.target_kl = clip, target_kl

    def losses(self, obs, act, ret, adv, log_pi_old, v_old):
        log_pi = self.policy(obs, act)
        v = self.vf(obs).squeeze(1)
        ratio = torch.exp(log_pi - log_pi_old)
        clip_adv = torch.clamp(ratio, 1 - self.clip, 1 + self.clip) * adv
        policy_loss = -torch.min(ratio * adv, clip_adv).mean()
        clip_v = v_old + torch.clamp(v - v_old, -self.clip, self.clip)
        vf_loss = torch.max(F.mse_loss(v, ret), F.mse_loss(clip_v, ret))
        return policy_loss, vf_loss, (log_pi_old - log_pi).mean()

    def train_model(self, obs, act, ret, adv):
        log_pi_old = self.policy(obs, act).detach()
        v_old = self.vf(obs).squeeze(1).detach()
        for _ in range(N // MB):
            idx = np.random.choice(N, MB)
            policy_loss, vf_loss, approx_kl = self.losses(
                obs[idx], act[idx], ret[idx], adv[idx], log_pi_old[idx], v_old[idx])
            total_loss = policy_loss + 0.5 * vf_loss

            self.vf_optimizer.zero_grad()
            total_loss.backward(retain_graph=True)
            self.vf_optimizer.step()

            if approx_kl <= 1.5 * self.target_kl:
                self.policy_optimizer.zero_grad()
                total_loss.backward()
                self.policy_optimizer.step()

    def train_model_fixed(self, obs, act, ret, adv):
        log_pi_old = self.policy(obs, act).detach()
        v_old = self.vf(obs).squeeze(1).detach()
        for _ in range(N // MB):
            idx = np.random.choice(N, MB)
            policy_loss, vf_loss, _ = self.losses(
                obs[idx], act[idx], ret[idx], adv[idx], log_pi_old[idx], v_old[idx])
            self.policy_optimizer.zero_grad()
            self.vf_optimizer.zero_grad()
            (policy_loss + 0.5 * vf_loss).backward()
            self.policy_optimizer.step()
            self.vf_optimizer.step()


obs = torch.randn(N, OBS)
act = torch.randn(N, ACT)
ret = torch.randn(N)
adv = (ret - ret.mean()) / (ret.std() + 1e-8)

agent = PPOAgent()
try:
    agent.train_model(obs, act, ret, adv)
    raise AssertionError("second backward through the stepped value net should fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

fixed = PPOAgent()
w_pi = fixed.policy.mu[0].weight.detach().clone()
w_v = fixed.vf[2].weight.detach().clone()
fixed.train_model_fixed(obs, act, ret, adv)
assert not torch.equal(w_pi, fixed.policy.mu[0].weight) and not torch.equal(w_v, fixed.vf[2].weight)
print("value step between two backwards: RuntimeError caught; single backward: both nets updated")
