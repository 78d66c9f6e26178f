"""
expect: GL005 65
dynamic: confirm
source: https://github.com/hijkzzz/pymarl2/issues/46

The report: pymarl2's PPO/MAPPO learner crashes when `mini_epochs > 1` because the
advantages are computed from the critic outside the mini-epoch loop and reused inside it;
after the first mini-epoch's backward and optimizer step, the second mini-epoch backpropagates
into the advantage graph again. The reporter listed two candidate fixes - detach the
advantages, or pass `retain_graph=True` - and leaned to detaching. This program rebuilds the
learner with the second option: a shared actor and a centralised critic, advantages built
from critic values outside the loop, `loss.backward(retain_graph=True)` and
`optimiser.step()` inside it. The asserts show the second mini-epoch's backward raises
"modified by an inplace operation" - the step updated the critic weights that the advantage
graph saved - while detaching the advantages trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_AGENTS, OBS, STATE, ACTS = 3, 8, 12, 5


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACTS))

    def forward(self, obs):
        return F.log_softmax(self.net(obs), dim=-1)


class CentralCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, state):
        return self.net(state).squeeze(-1)


class MAPPOLearner:
    def __init__(self, mini_epochs=4, clip=0.2, detach_advantages=False):
        self.actor, self.critic = Actor(), CentralCritic()
        self.optimiser = torch.optim.Adam(
            list(self.actor.parameters()) + list(self.critic.parameters()), lr=3e-3)
        self.mini_epochs, self.clip = mini_epochs, clip
        self.detach_advantages = detach_advantages

    def train(self, batch):
        obs, state, actions, old_logp, returns = batch
        values = self.critic(state)
        advantages = (returns - values).unsqueeze(-1).expand(-1, N_AGENTS)
        if self.detach_advantages:
            advantages = advantages.detach()
        for _ in range(self.mini_epochs):
            logp = self.actor(obs).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
            ratio = torch.exp(logp - old_logp)
            surr = torch.min(ratio * advantages, ratio.clamp(1 - self.clip, 1 + self.clip) * advantages)
            critic_loss = ((returns - self.critic(state)) ** 2).mean()
            loss = -surr.mean() + 0.5 * critic_loss
            self.optimiser.zero_grad()
            loss.backward(retain_graph=True)
            self.optimiser.step()
        return critic_loss.item()


def episode_batch(t=64):
    obs = torch.randn(t, N_AGENTS, OBS)
    state = torch.randn(t, STATE)
    actions = torch.randint(0, ACTS, (t, N_AGENTS))
    old_logp = torch.full((t, N_AGENTS), -torch.log(torch.tensor(float(ACTS))))
    returns = state[:, :3].sum(-1)
    return obs, state, actions, old_logp, returns


if __name__ == "__main__":
    learner = MAPPOLearner(detach_advantages=False)
    try:
        learner.train(episode_batch())
        raise AssertionError("expected the second mini-epoch to fail")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    fixed = MAPPOLearner(detach_advantages=True)
    a0 = fixed.actor.net[0].weight.detach().clone()
    first = fixed.train(episode_batch())
    for _ in range(10):
        last = fixed.train(episode_batch())
    assert last < first and not torch.equal(fixed.actor.net[0].weight.detach(), a0)
    print("OK: optimiser.step() between backwards through the advantage graph raises; detach trains")
