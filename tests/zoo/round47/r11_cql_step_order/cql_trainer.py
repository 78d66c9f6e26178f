"""Conservative Q-learning update with the Q-function stepped before the policy loss is backpropagated."""
import copy

import torch
import torch.nn.functional as F


class CQLTrainer:
    def __init__(self, policy, qf, policy_lr=3e-4, qf_lr=3e-4, discount=0.99, min_q_weight=1.0, num_random=4):
        self.policy = policy
        self.qf = qf
        self.target_qf = copy.deepcopy(qf)
        for p in self.target_qf.parameters():
            p.requires_grad_(False)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=policy_lr)
        self.qf_optimizer = torch.optim.Adam(self.qf.parameters(), lr=qf_lr)
        self.alpha_optimizer = torch.optim.Adam([self.log_alpha], lr=policy_lr)
        self.discount = discount
        self.min_q_weight = min_q_weight
        self.num_random = num_random
        self.target_entropy = -float(next(policy.mean.parameters()).shape[0])

    def _policy_and_alpha(self, obs):
        new_actions, log_pi = self.policy(obs)
        alpha_loss = -(self.log_alpha * (log_pi + self.target_entropy).detach()).mean()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        alpha = self.log_alpha.exp().detach()
        q_new_actions = self.qf(obs, new_actions)
        policy_loss = (alpha * log_pi - q_new_actions).mean()
        return policy_loss

    def _critic_loss(self, obs, actions, rewards, next_obs, terminals):
        q_pred = self.qf(obs, actions)
        with torch.no_grad():
            next_actions, _ = self.policy(next_obs)
            target_q = self.target_qf(next_obs, next_actions)
            q_target = rewards + (1.0 - terminals) * self.discount * target_q
        bellman = F.mse_loss(q_pred, q_target)
        batch = obs.shape[0]
        rep_obs = obs.repeat_interleave(self.num_random, dim=0)
        rand_actions = torch.rand(batch * self.num_random, actions.shape[-1]) * 2 - 1
        q_rand = self.qf(rep_obs, rand_actions).view(batch, self.num_random)
        cql_penalty = torch.logsumexp(q_rand, dim=1).mean() - q_pred.mean()
        return bellman + self.min_q_weight * cql_penalty

    def train_from_batch(self, batch):
        obs, actions, rewards, next_obs, terminals = batch
        policy_loss = self._policy_and_alpha(obs)
        qf_loss = self._critic_loss(obs, actions, rewards, next_obs, terminals)

        self.qf_optimizer.zero_grad()
        qf_loss.backward()
        self.qf_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()
        return policy_loss.item(), qf_loss.item()
