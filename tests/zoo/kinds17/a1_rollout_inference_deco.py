"""
expect: none
dynamic: dismiss
source: kind A

A policy-gradient agent collects rollouts through a method decorated with a
project-local decorator factory, ``rollout_mode()``, which simply wraps the
function in ``torch.inference_mode()``.  Inside, the softmax output (which
softmax saves for its backward) is clamped in place.  Because nothing is
recorded under inference mode, the in-place edit is harmless.
"""
import torch
import torch.nn as nn


def rollout_mode():
    def deco(fn):
        return torch.inference_mode()(fn)
    return deco


class Policy(nn.Module):
    def __init__(self, obs_dim=6, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(),
                                  nn.Linear(32, n_actions))

    def forward(self, obs):
        return self.body(obs)


class Agent:
    def __init__(self):
        torch.manual_seed(0)
        self.policy = Policy()
        self.eps = 1e-3

    @rollout_mode()
    def act(self, obs):
        logits = self.policy(obs)
        probs = torch.softmax(logits, dim=-1)
        probs.clamp_(min=self.eps)
        probs /= probs.sum(dim=-1, keepdim=True)
        actions = torch.multinomial(probs, 1).squeeze(-1)
        return actions, probs


def collect(agent, steps=16, n_envs=8):
    obs = torch.randn(n_envs, 6)
    acts, all_probs = [], []
    for _ in range(steps):
        a, p = agent.act(obs)
        acts.append(a)
        all_probs.append(p)
        obs = obs + 0.1 * torch.randn_like(obs)
    return torch.stack(acts), torch.stack(all_probs)


def main():
    agent = Agent()
    acts, probs = collect(agent)
    assert acts.shape == (16, 8)
    assert not probs.requires_grad
    assert torch.all(probs >= agent.eps * 0.5)
    assert torch.allclose(probs.sum(-1), torch.ones(16, 8), atol=1e-5)
    print("rollout ok", acts.float().mean().item())


if __name__ == "__main__":
    main()
