"""Self-organising regressor whose hidden units are switched on and off by a small learned mutation policy."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class EvolvingNet(nn.Module):
    OPS = ("keep", "grow", "prune")

    def __init__(self, in_dim=4, width=16):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, width)
        self.fc2 = nn.Linear(width, 1)
        self.register_buffer("mask", (torch.arange(width) < width // 2).float())
        self.policy = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, len(self.OPS)))

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)) * self.mask)

    def apply_op(self, op):
        active = int(self.mask.sum())
        if self.OPS[op] == "grow" and active < self.mask.numel():
            self.mask[active] = 1.0
            return 1.0
        if self.OPS[op] == "prune" and active > 1:
            self.mask[active - 1] = 0.0
            return -0.5
        return 0.0

    def evolve_with_policy(self, task_loss, epsilon):
        state = torch.tensor([[task_loss, epsilon]])
        dist = Categorical(logits=self.policy(state))
        op = dist.sample()
        reward = self.apply_op(int(op.item()))
        return {"total_reward": reward, "log_prob": dist.log_prob(op).item(), "op": int(op.item())}
