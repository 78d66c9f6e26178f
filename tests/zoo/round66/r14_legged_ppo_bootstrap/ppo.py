"""PPO update in the style of rsl_rl (actor/critic MLPs, GAE, clipped surrogate, adaptive lr)."""
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, num_obs, num_actions, hidden=64, init_noise_std=1.0):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(num_obs, hidden), nn.ELU(), nn.Linear(hidden, num_actions))
        self.critic = nn.Sequential(nn.Linear(num_obs, hidden), nn.ELU(), nn.Linear(hidden, 1))
        self.std = nn.Parameter(init_noise_std * torch.ones(num_actions))

    def distribution(self, obs):
        return torch.distributions.Normal(self.actor(obs), self.std.expand(obs.size(0), -1))

    def evaluate(self, obs):
        return self.critic(obs)


class RolloutStorage:
    def __init__(self):
        self.obs, self.actions, self.rewards, self.dones = [], [], [], []
        self.values, self.log_probs, self.mu, self.sigma = [], [], [], []

    def clear(self):
        self.__init__()


class PPO:
    def __init__(self, actor_critic, lr=1e-3, clip_param=0.2, gamma=0.99, lam=0.95,
                 num_learning_epochs=4, num_mini_batches=4, value_loss_coef=1.0,
                 entropy_coef=0.0, desired_kl=0.01, mirror_loss_coeff=0.1):
        self.actor_critic = actor_critic
        self.optimizer = torch.optim.Adam(actor_critic.parameters(), lr=lr)
        self.learning_rate = lr
        self.clip_param, self.gamma, self.lam = clip_param, gamma, lam
        self.num_learning_epochs, self.num_mini_batches = num_learning_epochs, num_mini_batches
        self.value_loss_coef, self.entropy_coef = value_loss_coef, entropy_coef
        self.desired_kl, self.mirror_loss_coeff = desired_kl, mirror_loss_coeff
        self.storage = RolloutStorage()

    def act(self, obs):
        dist = self.actor_critic.distribution(obs)
        actions = dist.sample()
        # rollout quantities are stored detached: they are data for the later update
        self.storage.obs.append(obs)
        self.storage.actions.append(actions.detach())
        self.storage.values.append(self.actor_critic.evaluate(obs).detach())
        self.storage.log_probs.append(dist.log_prob(actions).sum(-1, keepdim=True).detach())
        self.storage.mu.append(dist.mean.detach())
        self.storage.sigma.append(dist.stddev.detach())
        return actions

    def process_env_step(self, rewards, dones):
        self.storage.rewards.append(rewards.unsqueeze(-1))
        self.storage.dones.append(dones.unsqueeze(-1).float())

    def compute_returns(self, last_obs):
        st = self.storage
        last_values = self.actor_critic.evaluate(last_obs).detach()
        advantage = 0
        returns = [None] * len(st.rewards)
        for step in reversed(range(len(st.rewards))):
            next_values = last_values if step == len(st.rewards) - 1 else st.values[step + 1]
            not_done = 1.0 - st.dones[step]
            delta = st.rewards[step] + not_done * self.gamma * next_values - st.values[step]
            advantage = delta + not_done * self.gamma * self.lam * advantage
            returns[step] = advantage + st.values[step]
        self.returns = torch.cat(returns)
        values = torch.cat(st.values)
        adv = self.returns - values
        self.advantages = (adv - adv.mean()) / (adv.std() + 1e-8)

    def update(self):
        st = self.storage
        obs, actions = torch.cat(st.obs), torch.cat(st.actions)
        old_logp, old_mu, old_sigma = torch.cat(st.log_probs), torch.cat(st.mu), torch.cat(st.sigma)
        values_old = torch.cat(st.values)
        n = obs.size(0)
        mb = n // self.num_mini_batches
        mean_value_loss = 0.0
        for _ in range(self.num_learning_epochs):
            perm = torch.randperm(n)
            for i in range(self.num_mini_batches):
                idx = perm[i * mb:(i + 1) * mb]
                dist = self.actor_critic.distribution(obs[idx])
                logp = dist.log_prob(actions[idx]).sum(-1, keepdim=True)
                values = self.actor_critic.evaluate(obs[idx])
                mu, sigma = dist.mean, dist.stddev

                # adaptive learning rate from the KL: bookkeeping only
                with torch.inference_mode():
                    kl = torch.sum(torch.log(sigma / old_sigma[idx] + 1e-5)
                                   + (old_sigma[idx] ** 2 + (old_mu[idx] - mu) ** 2) / (2.0 * sigma ** 2)
                                   - 0.5, dim=-1).mean()
                    if kl > self.desired_kl * 2.0:
                        self.learning_rate = max(1e-5, self.learning_rate / 1.5)
                    elif 0.0 < kl < self.desired_kl / 2.0:
                        self.learning_rate = min(1e-2, self.learning_rate * 1.5)
                    for group in self.optimizer.param_groups:
                        group["lr"] = self.learning_rate

                ratio = torch.exp(logp - old_logp[idx])
                adv = self.advantages[idx]
                surrogate = torch.max(-adv * ratio,
                                      -adv * torch.clamp(ratio, 1 - self.clip_param, 1 + self.clip_param)).mean()
                value_clipped = values_old[idx] + (values - values_old[idx]).clamp(-self.clip_param, self.clip_param)
                value_loss = torch.max((values - self.returns[idx]).pow(2),
                                       (value_clipped - self.returns[idx]).pow(2)).mean()
                loss = surrogate + self.value_loss_coef * value_loss - self.entropy_coef * dist.entropy().mean()

                # mirror (left/right symmetry) loss: the mirrored target action is a fixed label
                mirrored_obs = obs[idx] * torch.tensor([-1.0, -1.0])
                mirrored_actions = self.actor_critic.actor(mirrored_obs)
                symmetry_loss = (mirrored_actions - (-mu).detach()).pow(2).mean()
                loss += self.mirror_loss_coeff * symmetry_loss

                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.actor_critic.parameters(), 1.0)
                self.optimizer.step()
                mean_value_loss += value_loss.item()
        self.storage.clear()
        return mean_value_loss / (self.num_learning_epochs * self.num_mini_batches)
