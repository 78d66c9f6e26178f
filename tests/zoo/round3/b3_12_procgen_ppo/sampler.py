"""Roll-out sampler: collects a batch of transitions from a vectorised environment."""
from collections import defaultdict

import numpy as np
import torch


def to_np(t):
    return t.cpu().detach().numpy()


class ToyVecEnv:
    """Stand-in for a ProcgenEnv: random observations and rewards."""

    def __init__(self, num_envs, obs_dim, n_actions, seed=0):
        self.rng = np.random.RandomState(seed)
        self.num_envs, self.obs_dim, self.n_actions = num_envs, obs_dim, n_actions

    def reset(self):
        return self.rng.randn(self.num_envs, self.obs_dim).astype(np.float32)

    def step(self, actions):
        obs = self.rng.randn(self.num_envs, self.obs_dim).astype(np.float32)
        rewards = (actions == 1).astype(np.float32) + 0.1 * self.rng.randn(self.num_envs)
        dones = self.rng.rand(self.num_envs) < 0.05
        return obs, rewards.astype(np.float32), dones, {}


class Sampler:
    def __init__(self, env, model, num_steps, device="cpu"):
        self.env = env
        self.model = model
        self.num_steps = num_steps
        self.device = device
        self.obs = env.reset()

    def run(self):
        storage = defaultdict(list)
        for _ in range(self.num_steps):
            obs = torch.as_tensor(self.obs, device=self.device)
            storage["states"] += [to_np(obs.clone())]
            action, infos = self.model.step(obs)
            actions = to_np(action)
            storage["actions"] += [actions]
            storage["values"] += [to_np(infos["value"])]
            storage["log_prob"] += [to_np(infos["log_prob"])]
            self.obs, rewards, dones, _ = self.env.step(actions)
            storage["rewards"] += [rewards]
            storage["dones"] += [dones.astype(np.float32)]
        return {k: np.asarray(v) for k, v in storage.items()}
