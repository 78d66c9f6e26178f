"""
expect: GL003 56
dynamic: confirm
source: none, invented

Reinforcement learning / interpretability. A RolloutCollector steps a toy gridworld
with a policy network and keeps a dict of per-step hooks registered through
`register_hook(name, fn)`. `collect` is decorated `@torch.inference_mode()` (rollouts
need no graph) and calls every hook on each step. The hook registered here is a
closure that computes an observation-saliency map by calling `.backward()` on the
chosen action's logit with respect to the observation. Inside inference mode nothing
is recorded, so the hook raises on the first step. The asserts catch that
RuntimeError around `collect`, and show that a collector which runs the hooks after
the inference-mode rollout (on recorded recomputation) produces non-zero saliency
maps for every step.
"""
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs_dim=16, n_actions=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return self.net(obs)


class GridWorld:
    def __init__(self, size=4, seed=0):
        self.size = size
        self.g = torch.Generator().manual_seed(seed)
        self.pos = 0

    def observe(self):
        obs = torch.zeros(self.size * self.size)
        obs[self.pos] = 1.0
        return obs + 0.05 * torch.randn(obs.shape, generator=self.g)

    def step(self, action):
        moves = [-self.size, self.size, -1, 1]
        self.pos = int(min(max(self.pos + moves[action], 0), self.size * self.size - 1))
        return self.observe()


class RolloutCollector:
    def __init__(self, policy, env):
        self.policy = policy
        self.env = env
        self.hooks = {}

    def register_hook(self, name, fn):
        self.hooks[name] = fn

    @torch.inference_mode()
    def collect(self, n_steps=10):
        obs = self.env.observe()
        trajectory = []
        for t in range(n_steps):
            logits = self.policy(obs)
            action = int(logits.argmax())
            for fn in self.hooks.values():
                fn(t, obs, action)
            trajectory.append((obs, action))
            obs = self.env.step(action)
        return trajectory


class DeferredHookCollector(RolloutCollector):
    """Fixed: roll out without a graph, then run the hooks with recording on."""

    def collect(self, n_steps=10):
        hooks, self.hooks = self.hooks, {}
        trajectory = super().collect(n_steps)
        self.hooks = hooks
        for t, (obs, action) in enumerate(trajectory):
            for fn in self.hooks.values():
                fn(t, obs.clone(), action)
        return trajectory


def make_saliency_hook(policy, store):
    def saliency(t, obs, action):
        x = obs.detach().clone().requires_grad_(True)
        policy.zero_grad()
        logit = policy(x)[action]
        logit.backward()
        store[t] = x.grad.abs()
    return saliency


def main():
    torch.manual_seed(0)
    policy = Policy()

    maps = {}
    collector = RolloutCollector(policy, GridWorld())
    collector.register_hook("saliency", make_saliency_hook(policy, maps))
    error = None
    try:
        collector.collect(n_steps=10)
    except RuntimeError as exc:
        error = exc
    assert error is not None and "does not require grad" in str(error)
    print("buggy collector raised:", str(error).splitlines()[0])
    assert maps == {}

    fixed_maps = {}
    fixed = DeferredHookCollector(policy, GridWorld())
    fixed.register_hook("saliency", make_saliency_hook(policy, fixed_maps))
    traj = fixed.collect(n_steps=10)
    assert len(traj) == 10 and sorted(fixed_maps) == list(range(10))
    assert all(m.sum() > 0 for m in fixed_maps.values())
    print("OK")


if __name__ == "__main__":
    main()
