"""
expect: GL001 49
dynamic: confirm
source: kinds check 43, kind 3

A clipped-surrogate (PPO-style) update of a small categorical policy on a contextual bandit, with a KL penalty to a
frozen copy of the initial policy. In one `with torch.no_grad():` block the author samples actions and takes the
old log-probabilities from the trained policy, the reference log-probabilities from the frozen copy, and also the
KL estimate that combines the two; after the block the surrogate uses the old log-probabilities as the constant
denominator of the importance ratio beside freshly recomputed (attached) log-probabilities, and the loss adds
`beta * kl`. The KL was computed in the no-grad block, so it adds a number and no gradient. The asserts show that the
gradient of the full loss equals the gradient of the surrogate alone on every update, while the KL recomputed from
the fresh log-probabilities and the reference's has a non-zero gradient.
"""
import copy

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(5)

OBS, ACTIONS, BATCH = 8, 4, 256
BETA, CLIP = 0.5, 0.2


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, ACTIONS))

    def forward(self, obs):
        return self.net(obs)


def reward_fn(obs, actions, w):
    return (obs @ w).gather(1, actions.unsqueeze(1)).squeeze(1)


def main():
    w = torch.randn(OBS, ACTIONS)
    policy = Policy()
    reference = copy.deepcopy(policy).requires_grad_(False)
    opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
    params = list(policy.parameters())

    for it in range(15):
        obs = torch.randn(BATCH, OBS)
        with torch.no_grad():
            dist = Categorical(logits=policy(obs))
            actions = dist.sample()
            old_logp = dist.log_prob(actions)
            ref_logp = Categorical(logits=reference(obs)).log_prob(actions)
            kl = (old_logp - ref_logp).mean()
            rewards = reward_fn(obs, actions, w)
            adv = (rewards - rewards.mean()) / (rewards.std() + 1e-8)

        for epoch in range(4):
            new_logp = Categorical(logits=policy(obs)).log_prob(actions)
            ratio = torch.exp(new_logp - old_logp)
            surrogate = torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
            loss = -surrogate + BETA * kl

            g_loss = torch.autograd.grad(loss, params, retain_graph=True)
            g_surr = torch.autograd.grad(-surrogate, params, retain_graph=True)
            assert all(torch.allclose(a, b) for a, b in zip(g_loss, g_surr))

            opt.zero_grad()
            loss.backward()
            opt.step()

    # the intended penalty, from the fresh log-probabilities and the reference's, does have a gradient
    new_logp = Categorical(logits=policy(obs)).log_prob(actions)
    intended_kl = (new_logp - ref_logp).mean()
    g_kl = torch.autograd.grad(intended_kl, params)
    assert sum(g.abs().sum().item() for g in g_kl) > 1e-3
    print(f"policy: mean reward {rewards.mean().item():.3f}, kl to reference {kl.item():.4f}")


if __name__ == "__main__":
    main()
