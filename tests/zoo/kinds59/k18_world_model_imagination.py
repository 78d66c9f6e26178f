"""
expect: GL005 111
dynamic: confirm
source: none, invented

Model-based policy learning on a 2-D point: a learned dynamics model with its own `step(state,
action)` method (the name of an optimizer/env API) and a reward model live in a dict
`self.world = {"dynamics": ..., "reward": ...}`; the actor's `sample(obs)` uses `rsample`, so the
imagined return is differentiable through the world model, and the actor loss adds
`alpha.detach() * logp`. `train_iteration` builds the actor loss through an imagined rollout of
`self.world["dynamics"].step(...)` and then trains the world model with `take_step(self.model_opt,
model_loss)`: the helper steps Adam on the dynamics and reward weights in place while the actor
loss graph still needs them, so the following `take_step(self.actor_opt, actor_loss)` raises
"modified by an inplace operation". The asserts catch it; with `model_first=True` the world model
is stepped before the imagined rollout is built, the actor trains and steers toward the origin.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A = 2, 2


def true_env(s, a):
    s2 = s + 0.2 * a
    return s2, -(s2 ** 2).sum(-1, keepdim=True)


class LatentDynamics(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(S + A, hidden), nn.ELU(), nn.Linear(hidden, S))

    def step(self, state, action):
        return state + self.f(torch.cat([state, action], -1))


class RewardModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(S, hidden), nn.ELU(), nn.Linear(hidden, 1))

    def forward(self, state):
        return self.f(state)


class TanhGaussianPolicy(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(S, hidden), nn.ELU(), nn.Linear(hidden, 2 * A))

    def sample(self, obs):
        mu, log_std = self.body(obs).chunk(2, -1)
        dist = torch.distributions.Normal(mu, log_std.clamp(-4, 1).exp())
        u = dist.rsample()
        act = torch.tanh(u)
        logp = (dist.log_prob(u) - torch.log(1 - act.pow(2) + 1e-6)).sum(-1, keepdim=True)
        return act, logp

    def mode(self, obs):
        return torch.tanh(self.body(obs).chunk(2, -1)[0])


def take_step(optimizer, loss, clip=10.0):
    optimizer.zero_grad()
    loss.backward()
    params = [p for g in optimizer.param_groups for p in g["params"]]
    nn.utils.clip_grad_norm_(params, clip)
    optimizer.step()


class ModelBasedAgent:
    def __init__(self, horizon=5, alpha=0.05):
        self.world = {"dynamics": LatentDynamics(), "reward": RewardModel()}
        self.actor = TanhGaussianPolicy()
        world_params = [p for m in self.world.values() for p in m.parameters()]
        self.model_opt = torch.optim.Adam(world_params, lr=3e-3)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.horizon = horizon
        self.alpha = torch.tensor(alpha)

    def imagine(self, start):
        s, ret, ent = start, 0.0, 0.0
        for _ in range(self.horizon):
            a, logp = self.actor.sample(s)
            s = self.world["dynamics"].step(s, a)
            ret = ret + self.world["reward"](s)
            ent = ent + logp
        return ret, ent

    def model_loss(self, s, a, s2, r):
        pred_s2 = self.world["dynamics"].step(s, a)
        return F.mse_loss(pred_s2, s2) + F.mse_loss(self.world["reward"](s2), r)

    def train_iteration(self, batch, model_first=False):
        s, a, s2, r = batch
        if model_first:
            take_step(self.model_opt, self.model_loss(s, a, s2, r))
            ret, logp = self.imagine(s)
            actor_loss = (self.alpha.detach() * logp - ret).mean()
            take_step(self.actor_opt, actor_loss)
            return
        model_loss = self.model_loss(s, a, s2, r)
        ret, logp = self.imagine(s)
        actor_loss = (self.alpha.detach() * logp - ret).mean()
        take_step(self.model_opt, model_loss)
        take_step(self.actor_opt, actor_loss)


def random_batch(n=256):
    s = torch.randn(n, S)
    a = torch.rand(n, A) * 2 - 1
    s2, r = true_env(s, a)
    return s, a, s2, r


if __name__ == "__main__":
    agent = ModelBasedAgent()
    err = None
    try:
        agent.train_iteration(random_batch())
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "modified by an inplace operation" in err, err

    torch.manual_seed(0)
    agent = ModelBasedAgent()
    a0 = copy.deepcopy(agent.actor.state_dict())
    for _ in range(300):
        agent.train_iteration(random_batch(), model_first=True)
    moved = max((agent.actor.state_dict()[k] - a0[k]).abs().max().item() for k in a0)
    assert moved > 1e-3, moved
    with torch.no_grad():
        probe = torch.tensor([[1.0, 1.0], [-1.0, -1.0]])
        act = agent.actor.mode(probe)
    assert bool((act[0] < 0).all()) and bool((act[1] > 0).all()), act
    print("k18_world_model_imagination: all checks passed")
