"""
expect: GL002 70, GL003 72
dynamic: confirm
source: https://github.com/pyrosnowman24/RSU_RL_System/blob/03989264aaa3ae5a9e88a7b9b2d73b1e5017a9ff/Models/Actor_Critic/RSU_RL_System.py

Roadside-unit placement over a set of intersections with an attention (pointer)
actor trained by an advantage policy gradient, as in the linked Lightning system.
During the rollout each log-probability is stored with logp.detach().numpy() in a
NumPy episode buffer; the training step rebuilds the batch with torch.from_numpy,
forms the actor loss, and, because that loss "does not require grad", sets
actor_loss.requires_grad = True before returning it. Backward then runs, but the
actor's attention weights receive no gradient and never change. The asserts show
it, and that keeping the log-probabilities as tensors trains the actor.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_INTER, FEAT, HIDDEN, N_RSU = 10, 3, 16, 3


class PointerActor(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(FEAT, HIDDEN)
        self.query = nn.Parameter(torch.randn(HIDDEN) * 0.1)
        self.W = nn.Linear(2 * HIDDEN, HIDDEN)
        self.v = nn.Linear(HIDDEN, 1, bias=False)

    def forward(self, intersections, mask):
        h = self.embed(intersections)
        q = self.query.expand_as(h)
        scores = self.v(torch.tanh(self.W(torch.cat([h, q], dim=-1)))).squeeze(-1)
        scores = scores.masked_fill(mask, float("-inf"))
        dist = torch.distributions.Categorical(logits=scores)
        action = dist.sample()
        return action, dist.log_prob(action)


def coverage_reward(intersections, chosen):
    picked = intersections[chosen]
    return float((picked[:, 0] * picked[:, 1]).sum())


def rollout(actor, intersections, keep_tensors):
    mask = torch.zeros(N_INTER, dtype=torch.bool)
    chosen, logps = [], []
    episode_logp = np.empty((0, 1))
    for _ in range(N_RSU):
        action, logp = actor(intersections, mask)
        mask = mask.clone()
        mask[action] = True
        chosen.append(int(action))
        logps.append(logp)
        episode_logp = np.vstack((episode_logp, logp.detach().numpy()))
    reward = coverage_reward(intersections, chosen)
    return (torch.stack(logps) if keep_tensors else episode_logp), reward


def train_as_written(actor, opt, episodes):
    batch_logp, rewards = [], []
    for inter in episodes:
        episode_logp, reward = rollout(actor, inter, keep_tensors=False)
        batch_logp.append(episode_logp)
        rewards.append(reward)
    advantages = torch.tensor(rewards) - torch.tensor(rewards).mean()
    logps = torch.from_numpy(np.stack(batch_logp)).squeeze(-1)
    actor_loss = -torch.mean(advantages.detach() * logps.sum(dim=1))
    actor_loss.requires_grad = True
    opt.zero_grad()
    actor_loss.backward()
    opt.step()


def train_intended(actor, opt, episodes):
    batch_logp, rewards = [], []
    for inter in episodes:
        logps, reward = rollout(actor, inter, keep_tensors=True)
        batch_logp.append(logps.sum())
        rewards.append(reward)
    advantages = torch.tensor(rewards) - torch.tensor(rewards).mean()
    actor_loss = -torch.mean(advantages * torch.stack(batch_logp))
    opt.zero_grad()
    actor_loss.backward()
    opt.step()


episodes = [torch.rand(N_INTER, FEAT) for _ in range(6)]

torch.manual_seed(1)
actor = PointerActor()
opt = torch.optim.Adam(actor.parameters(), lr=1e-2)
start = [p.detach().clone() for p in actor.parameters()]
train_as_written(actor, opt, episodes)
assert all(p.grad is None for p in actor.parameters()), "the actor should get no gradient"
assert all(torch.equal(s, p) for s, p in zip(start, actor.parameters()))

torch.manual_seed(1)
actor = PointerActor()
opt = torch.optim.Adam(actor.parameters(), lr=1e-2)
start = [p.detach().clone() for p in actor.parameters()]
train_intended(actor, opt, episodes)
assert all(p.grad is not None for p in actor.parameters())
assert any(not torch.equal(s, p) for s, p in zip(start, actor.parameters()))
print("numpy log-probs + requires_grad flag leave the actor untrained; tensor log-probs train it")
