"""
expect: none
dynamic: dismiss
source: none, invented

PPO on a 7-cell corridor (reward at the right end). policy.py defines a `CategoricalPolicy` whose
own methods are called `sample`, `log_prob` and `entropy` (the names of torch distribution
methods); `log_prob` and `entropy` return tensors with history. The learner reaches them through
attributes (`self.agent.policy.log_prob(...)`) and builds the clipped surrogate
`torch.min(ratio * adv, ratio.clamp(...) * adv)` with normalised advantages that are detached
weights, plus an entropy bonus and a separate value loss. Old log-probabilities and advantages are
computed under no_grad, every epoch recomputes the new log-probabilities before its single step,
so this is correct. The asserts check that policy and value weights change, that the value loss
falls, and that the greedy policy walks right in every cell.
"""
import torch
import torch.nn.functional as F

from policy import Agent

torch.manual_seed(0)
torch.set_num_threads(1)

CELLS, HORIZON = 7, 12


def one_hot(s):
    return F.one_hot(s, CELLS).float()


class PPOLearner:
    def __init__(self, clip=0.2, ent_coef=0.01, gamma=0.95):
        self.agent = Agent(CELLS, 2)
        self.opt = torch.optim.Adam(self.agent.parameters(), lr=3e-3)
        self.clip, self.ent_coef, self.gamma = clip, ent_coef, gamma

    def collect(self, n_envs=32):
        s = torch.zeros(n_envs, dtype=torch.long)
        alive = torch.ones(n_envs)
        obs, acts, rews, masks = [], [], [], []
        with torch.no_grad():
            for _ in range(HORIZON):
                a = self.agent.policy.sample(one_hot(s))
                s2 = torch.where(a == 1, s + 1, s - 1).clamp(0, CELLS - 1)
                r = (s2 == CELLS - 1).float() * alive
                obs.append(one_hot(s)); acts.append(a); rews.append(r); masks.append(alive.clone())
                alive = alive * (s2 != CELLS - 1).float()
                s = s2
        returns, g = [], torch.zeros(n_envs)
        for r, m in zip(reversed(rews), reversed(masks)):
            g = r + self.gamma * g * m
            returns.append(g)
        returns.reverse()
        keep = torch.cat(masks).bool()
        return torch.cat(obs)[keep], torch.cat(acts)[keep], torch.cat(returns)[keep]

    def update(self, obs, acts, rets, epochs=4):
        with torch.no_grad():
            old_logp = self.agent.policy.log_prob(obs, acts)
            adv = rets - self.agent.value(obs)
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(epochs):
            logp = self.agent.policy.log_prob(obs, acts)
            ratio = torch.exp(logp - old_logp)
            surr = torch.min(ratio * adv.detach(), ratio.clamp(1 - self.clip, 1 + self.clip) * adv.detach())
            value_loss = F.mse_loss(self.agent.value(obs), rets)
            loss = -surr.mean() - self.ent_coef * self.agent.policy.entropy(obs).mean() + 0.5 * value_loss
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return value_loss.item()


if __name__ == "__main__":
    learner = PPOLearner()
    start = {k: v.clone() for k, v in learner.agent.state_dict().items()}
    vlosses = [learner.update(*learner.collect()) for _ in range(60)]
    for k in start:
        if k.endswith("weight"):
            assert (learner.agent.state_dict()[k] - start[k]).abs().max().item() > 1e-3, k
    assert sum(vlosses[-10:]) < sum(vlosses[:10]), (vlosses[:10], vlosses[-10:])
    with torch.no_grad():
        greedy = learner.agent.policy(one_hot(torch.arange(CELLS - 1))).argmax(-1)
    assert bool((greedy == 1).all()), greedy
    print("k17_ppo_corridor: all checks passed")
