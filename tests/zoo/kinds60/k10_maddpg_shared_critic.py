"""
expect: GL005 81
dynamic: confirm
source: none, invented

A MADDPG-style learner for three cooperating agents with one centralized critic shared by all of them. In
`update`, each agent's actor loss is built by swapping that agent's action for its actor's output and scoring
the joint action with the shared critic; the losses are kept in `actor_losses`. The critic is then trained on
its TD loss and `self.critic_opt.step()` runs, and only after that does the loop call `loss.backward()` on each
stored actor loss. Every actor loss flows through the shared critic, whose weights the step just changed in
place, so the first actor backward fails with "modified by an inplace operation". The asserts catch that
error and show no actor was updated; `update_critic_first`, which builds the actor losses after the critic
step, trains the critic and all three actors, and the joint reward goes up.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_AGENTS, OBS_DIM, ACT_DIM = 3, 6, 2


class ActorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.ReLU(), nn.Linear(64, ACT_DIM), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class CentralCritic(nn.Module):
    def __init__(self):
        super().__init__()
        joint = N_AGENTS * (OBS_DIM + ACT_DIM)
        self.net = nn.Sequential(nn.Linear(joint, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                 nn.Linear(128, 1))

    def forward(self, obs_all, act_all):
        return self.net(torch.cat([obs_all.flatten(1), act_all.flatten(1)], dim=-1))


class Agent:
    def __init__(self, lr=1e-3):
        self.actor = ActorNet()
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)


class MADDPG:
    def __init__(self, gamma=0.95, tau=0.01):
        self.agents = [Agent() for _ in range(N_AGENTS)]
        self.critic = CentralCritic()
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma
        self.tau = tau

    def joint_action_with(self, i, obs, act):
        acts = [self.agents[j].actor(obs[:, j]) if j == i else act[:, j] for j in range(N_AGENTS)]
        return torch.stack(acts, dim=1)

    def critic_loss(self, obs, act, rew, next_obs, done):
        with torch.no_grad():
            next_act = torch.stack([ag.actor(next_obs[:, j]) for j, ag in enumerate(self.agents)], dim=1)
            y = rew + self.gamma * (1 - done) * self.critic_target(next_obs, next_act)
        return F.mse_loss(self.critic(obs, act), y)

    def update(self, obs, act, rew, next_obs, done):
        actor_losses = []
        for i, agent in enumerate(self.agents):
            q = self.critic(obs, self.joint_action_with(i, obs, act))
            actor_losses.append(-q.mean())

        critic_loss = self.critic_loss(obs, act, rew, next_obs, done)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        for agent, loss in zip(self.agents, actor_losses):
            agent.actor_opt.zero_grad()
            loss.backward()
            agent.actor_opt.step()
        self.soft_update()

    def update_critic_first(self, obs, act, rew, next_obs, done):
        critic_loss = self.critic_loss(obs, act, rew, next_obs, done)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        actor_losses = []
        for i, agent in enumerate(self.agents):
            q = self.critic(obs, self.joint_action_with(i, obs, act))
            actor_losses.append(-q.mean())
        for agent, loss in zip(self.agents, actor_losses):
            agent.actor_opt.zero_grad()
            loss.backward()
            agent.actor_opt.step()
        self.soft_update()

    @torch.no_grad()
    def soft_update(self):
        for p, tp in zip(self.critic.parameters(), self.critic_target.parameters()):
            tp.lerp_(p, self.tau)


TARGET = torch.randn(N_AGENTS, OBS_DIM, ACT_DIM) * 0.6


def team_reward(obs, act):
    best = torch.tanh(torch.einsum("nao,aok->nak", obs, TARGET))
    return -((act - best) ** 2).sum(dim=(1, 2)).unsqueeze(-1)


def sample_batch(n=256):
    obs = torch.randn(n, N_AGENTS, OBS_DIM)
    act = torch.rand(n, N_AGENTS, ACT_DIM) * 2 - 1
    return obs, act, team_reward(obs, act), torch.randn(n, N_AGENTS, OBS_DIM), torch.ones(n, 1)


def policy_reward(learner, obs):
    with torch.no_grad():
        act = torch.stack([ag.actor(obs[:, j]) for j, ag in enumerate(learner.agents)], dim=1)
        return team_reward(obs, act).mean().item()


def main():
    learner = MADDPG()
    actors0 = [[p.detach().clone() for p in ag.actor.parameters()] for ag in learner.agents]
    try:
        learner.update(*sample_batch())
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised
    for before, ag in zip(actors0, learner.agents):
        assert all(torch.equal(a, b) for a, b in zip(before, ag.actor.parameters()))

    torch.manual_seed(0)
    learner = MADDPG()
    actors0 = [[p.detach().clone() for p in ag.actor.parameters()] for ag in learner.agents]
    probe = torch.randn(512, N_AGENTS, OBS_DIM)
    r_before = policy_reward(learner, probe)
    for it in range(800):
        learner.update_critic_first(*sample_batch())
    r_after = policy_reward(learner, probe)
    for before, ag in zip(actors0, learner.agents):
        assert not any(torch.equal(a, b) for a, b in zip(before, ag.actor.parameters()))
    assert r_after > r_before + 1.0, (r_before, r_after)
    print(f"team reward {r_before:.3f} -> {r_after:.3f}")


if __name__ == "__main__":
    main()
