import torch
import torch.nn as nn


class LatentDynamics(nn.Module):
    def __init__(self, s=8, a=2):
        super().__init__()
        self.step_net = nn.Sequential(nn.Linear(s + a, 32), nn.ELU(), nn.Linear(32, s))
        self.reward = nn.Linear(s, 1)

    def img_step(self, state, action):
        return state + torch.tanh(self.step_net(torch.cat([state, action], -1)))


def imagine(dynamics, policy, start, horizon, stop_grad_actor=True):
    """Roll the policy forward in latent space; the policy's *input* is a stop-gradient copy."""
    states, state = [], start
    for _ in range(horizon):
        inp = state.detach() if stop_grad_actor else state
        action = policy(inp)
        state = dynamics.img_step(state, action)
        states.append(state)
    return torch.stack(states)
