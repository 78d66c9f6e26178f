import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Agent:
    def __init__(self, obs_dim, act_dim, state_dim, joint_act_dim, gamma=0.95, tau=0.01):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(state_dim + joint_act_dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.target_actor = copy.deepcopy(self.actor)
        self.target_critic = copy.deepcopy(self.critic)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma, self.tau = gamma, tau

    def q(self, net, state, joint_action):
        return net(torch.cat([state, joint_action], dim=1)).flatten()

    def soft_update(self):
        with torch.no_grad():
            for net, tgt in ((self.actor, self.target_actor), (self.critic, self.target_critic)):
                for p, tp in zip(net.parameters(), tgt.parameters()):
                    tp.mul_(1 - self.tau).add_(self.tau * p)


class MADDPG:
    def __init__(self, n_agents, obs_dim, act_dim):
        self.n = n_agents
        state_dim = n_agents * obs_dim
        self.agents = [Agent(obs_dim, act_dim, state_dim, n_agents * act_dim) for _ in range(n_agents)]

    def learn(self, batch, fixed=False, step_actors=True):
        state, obs, actions_taken, rewards, next_state, next_obs, dones = batch

        # current-policy actions of all agents (one forward per actor)
        policy_actions = [ag.actor(obs[i]) for i, ag in enumerate(self.agents)]
        joint_policy = torch.cat(policy_actions, dim=1)
        with torch.no_grad():
            joint_next = torch.cat([ag.target_actor(next_obs[i]) for i, ag in enumerate(self.agents)], dim=1)
        joint_taken = torch.cat(actions_taken, dim=1)

        for i, agent in enumerate(self.agents):
            with torch.no_grad():
                target = rewards[:, i] + agent.gamma * agent.q(agent.target_critic, next_state, joint_next) * (1 - dones)
            critic_loss = F.mse_loss(agent.q(agent.critic, state, joint_taken), target)
            agent.critic_optim.zero_grad()
            critic_loss.backward()
            agent.critic_optim.step()

            if fixed:
                # only agent i's own action carries its actor's graph
                own = [a if j == i else a.detach() for j, a in enumerate(policy_actions)]
                actor_loss = -agent.q(agent.critic, state, torch.cat(own, dim=1)).mean()
                agent.actor_optim.zero_grad()
                actor_loss.backward()
            else:
                actor_loss = -agent.q(agent.critic, state, joint_policy).mean()
                agent.actor_optim.zero_grad()
                actor_loss.backward(retain_graph=True)

        # actor steps are deferred until every agent has back-propagated
        if step_actors:
            for agent in self.agents:
                agent.actor_optim.step()
                agent.soft_update()
