"""
expect: GL001 77, GL003 78
dynamic: confirm
source: https://github.com/Emmanuel-Naive/MATD3/blob/aba65a4d59621d704c3370d7312c90312c6d6c12/matd3.py

A multi-agent TD3 learner (centralised twin critics, one deterministic actor per agent)
for ship collision avoidance. The critic update is ordinary; the delayed actor update
asks the agent's critic for Q1(states, mu), where mu are the current actors' actions.
In this version the critic output is detached before the actor loss is built, and the
"element 0 of tensors does not require grad" error that followed was silenced with
actor_loss.requires_grad = True. The actor loss is now a leaf with no path to mu, so the
actor's optimizer steps with no gradient and the policy never improves, while the logs
still show an actor loss. The asserts show the actor weights unchanged and gradient-free
after several delayed updates, and that Q1(states, mu) without the detach gives every actor
a gradient that moves its weights.
"""
import copy

import torch as T
import torch.nn as nn
import torch.nn.functional as F

T.manual_seed(0)
T.set_num_threads(1)


class CriticNetwork(nn.Module):
    def __init__(self, beta, in_dim, n_agents, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(in_dim + n_agents * n_actions, 32)
        self.fc2 = nn.Linear(32, 32)
        self.q1 = nn.Linear(32, 1)
        self.fc3 = nn.Linear(in_dim + n_agents * n_actions, 32)
        self.fc4 = nn.Linear(32, 32)
        self.q2 = nn.Linear(32, 1)
        self.optimizer = T.optim.Adam(self.parameters(), lr=beta)

    def forward(self, state, action):
        sa = T.cat([state, action], dim=1)
        return self.q1(F.relu(self.fc2(F.relu(self.fc1(sa))))), self.q2(F.relu(self.fc4(F.relu(self.fc3(sa)))))

    def Q1(self, state, action):
        sa = T.cat([state, action], dim=1)
        return self.q1(F.relu(self.fc2(F.relu(self.fc1(sa)))))


class ActorNetwork(nn.Module):
    def __init__(self, alpha, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions), nn.Tanh())
        self.optimizer = T.optim.Adam(self.parameters(), lr=alpha)

    def forward(self, obs):
        return self.net(obs)


class Agent:
    def __init__(self, obs_dim, state_dim, n_actions, n_agents, gamma=0.99, tau=0.01):
        self.gamma, self.tau = gamma, tau
        self.actor = ActorNetwork(0.01, obs_dim, n_actions)
        self.critic = CriticNetwork(0.01, state_dim, n_agents, n_actions)
        self.target_actor = copy.deepcopy(self.actor)
        self.target_critic = copy.deepcopy(self.critic)

    def update_network_parameters(self):
        for net, tgt in ((self.actor, self.target_actor), (self.critic, self.target_critic)):
            for p, tp in zip(net.parameters(), tgt.parameters()):
                tp.data.copy_(self.tau * p.data + (1 - self.tau) * tp.data)


class MATD3:
    def __init__(self, n_agents, obs_dim, n_actions, freq=2):
        self.freq = freq
        self.agents = [Agent(obs_dim, n_agents * obs_dim, n_actions, n_agents) for _ in range(n_agents)]

    def learn_actor(self, agent, states, mu):
        actor_loss = agent.critic.Q1(states, mu).detach()
        actor_loss.requires_grad = True
        actor_loss = -T.mean(actor_loss)
        agent.actor.optimizer.zero_grad()
        actor_loss.backward()
        agent.actor.optimizer.step()
        agent.update_network_parameters()
        return actor_loss.item()

    def learn(self, batch, steps_total):
        actor_obs, states, actions, rewards, actor_new_obs, states_ = batch
        new_actions = T.cat([a.target_actor(o) for a, o in zip(self.agents, actor_new_obs)], dim=1)
        mu = T.cat([a.actor(o) for a, o in zip(self.agents, actor_obs)], dim=1)
        old_actions = T.cat(actions, dim=1)
        for idx, agent in enumerate(self.agents):
            q1, q2 = agent.critic(states, old_actions)
            with T.no_grad():
                t1, t2 = agent.target_critic(states_, new_actions)
                target = rewards[:, idx:idx + 1] + agent.gamma * T.min(t1, t2)
            critic_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
            agent.critic.optimizer.zero_grad()
            critic_loss.backward()
            agent.critic.optimizer.step()
            if steps_total % self.freq == 0 and steps_total > 0:
                self.learn_actor(agent, states, mu)


def sample_batch(n_agents, obs_dim, n_actions, bs=64):
    obs = [T.randn(bs, obs_dim) for _ in range(n_agents)]
    new_obs = [T.randn(bs, obs_dim) for _ in range(n_agents)]
    acts = [T.rand(bs, n_actions) * 2 - 1 for _ in range(n_agents)]
    return obs, T.cat(obs, 1), acts, T.randn(bs, n_agents), new_obs, T.cat(new_obs, 1)


N_AGENTS, OBS, ACT = 2, 6, 2
algo = MATD3(N_AGENTS, OBS, ACT)
snap = [[p.detach().clone() for p in a.actor.parameters()] for a in algo.agents]
for step in range(1, 9):
    algo.learn(sample_batch(N_AGENTS, OBS, ACT), step)
for a, s in zip(algo.agents, snap):
    assert all(p.grad is None for p in a.actor.parameters()), "actor got a gradient"
    assert all(T.equal(x, y) for x, y in zip(s, a.actor.parameters())), "actor weights moved"

# intended actor update: the critic value stays on the graph through mu
fixed = MATD3(N_AGENTS, OBS, ACT)
fsnap = [[p.detach().clone() for p in a.actor.parameters()] for a in fixed.agents]
batch = sample_batch(N_AGENTS, OBS, ACT)
mu = T.cat([a.actor(o) for a, o in zip(fixed.agents, batch[0])], dim=1)
for a in fixed.agents:
    a.actor.optimizer.zero_grad()
loss = sum(-a.critic.Q1(batch[1], mu).mean() for a in fixed.agents)
loss.backward()
for a in fixed.agents:
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in a.actor.parameters())
    a.actor.optimizer.step()
for a, s in zip(fixed.agents, fsnap):
    assert any(not T.equal(x, y) for x, y in zip(s, a.actor.parameters()))
print("switched actor loss left both actors untouched; graph-kept loss moved them")
