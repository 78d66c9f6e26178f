import copy

import torch as T
import torch.nn as nn


class ActorNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc1=32, fc2=32, alpha=0.01):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_dims, fc1), nn.ReLU(),
                                 nn.Linear(fc1, fc2), nn.ReLU(),
                                 nn.Linear(fc2, n_actions), nn.Tanh())
        self.optimizer = T.optim.Adam(self.parameters(), lr=alpha)
        self.device = T.device("cpu")

    def forward(self, state):
        return self.net(state)


class CriticNetwork(nn.Module):
    def __init__(self, input_dims, n_agents, n_actions, fc1=32, fc2=32, beta=0.01):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_dims + n_agents * n_actions, fc1), nn.ReLU(),
                                 nn.Linear(fc1, fc2), nn.ReLU(), nn.Linear(fc2, 1))
        self.optimizer = T.optim.Adam(self.parameters(), lr=beta)

    def forward(self, state, action):
        return self.net(T.cat([state, action], dim=1))


class Agent:
    def __init__(self, actor_dims, critic_dims, n_actions, n_agents, name,
                 alpha=0.01, beta=0.01, gamma=0.95, tau=0.01):
        self.name = name
        self.gamma, self.tau = gamma, tau
        self.actor = ActorNetwork(actor_dims, n_actions, alpha=alpha)
        self.critic = CriticNetwork(critic_dims, n_agents, n_actions, beta=beta)
        self.target_actor = copy.deepcopy(self.actor)
        self.target_critic = copy.deepcopy(self.critic)

    def update_network_parameters(self):
        with T.no_grad():
            for net, target in ((self.actor, self.target_actor), (self.critic, self.target_critic)):
                for p, tp in zip(net.parameters(), target.parameters()):
                    tp.mul_(1 - self.tau).add_(self.tau * p)
