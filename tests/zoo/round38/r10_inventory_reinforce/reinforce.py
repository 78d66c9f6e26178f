import numpy as np
import torch
import torch.nn as nn


class PolicyNetwork(nn.Module):
    def __init__(self, obs, act):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(obs, 32), nn.Linear(32, act)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class ValueNetwork(nn.Module):
    def __init__(self, obs):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(obs, 32), nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def choose_action(state, policy_net, action_std):
    mean = policy_net(torch.from_numpy(state).float())
    cov = torch.diag(torch.full((mean.shape[-1],), action_std ** 2))
    dist = torch.distributions.MultivariateNormal(mean, cov)
    action = dist.sample()
    return action, dist.log_prob(action), dist.entropy()


def run_episode(env, policy_net, value_net, action_std):
    traj = {"values": [], "logprobs": [], "rewards": [], "entropies": []}
    state, done = env.reset(), False
    while not done:
        action, logprob, entropy = choose_action(state, policy_net, action_std)
        # the simulator is numpy-only: the action leaves the graph, the logprob stays in it
        next_state, reward, done = env.step(action.detach().numpy().flatten())
        traj["values"].append(value_net(torch.from_numpy(state).float()))
        traj["logprobs"].append(logprob)
        traj["rewards"].append(reward)
        traj["entropies"].append(entropy)
        state = next_state
    return traj


def reinforce_update(traj, opt_pi, opt_v, gamma=0.99, w_ent=1e-3):
    logprobs = torch.stack(traj["logprobs"]).squeeze()
    entropies = torch.stack(traj["entropies"]).squeeze()
    values = torch.stack(traj["values"]).squeeze()
    g, returns = 0.0, []
    for r in reversed(traj["rewards"]):
        g = r + gamma * g
        returns.insert(0, g)
    returns = torch.tensor(returns, dtype=torch.float32)   # environment rewards, not model outputs
    adv = returns - values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    loss_pi = -(adv.detach() * logprobs).mean() - w_ent * entropies.mean()
    loss_v = torch.nn.functional.mse_loss(values, returns)
    opt_pi.zero_grad()
    loss_pi.backward()
    opt_pi.step()
    opt_v.zero_grad()
    loss_v.backward()
    opt_v.step()
    return float(np.mean(traj["rewards"]))
