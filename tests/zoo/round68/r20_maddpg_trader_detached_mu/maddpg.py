import numpy as np
import torch as T
import torch.nn.functional as F

from network import Agent


class MADDPG:
    def __init__(self, raw_dims, actor_dims, stock_keys, n_actions, latent=True, lr_latent=0.01):
        self.n_agents = len(stock_keys)
        critic_dims = actor_dims * self.n_agents
        self.agents = [Agent(actor_dims, critic_dims, n_actions, self.n_agents, key)
                       for key in stock_keys]
        self.latent = latent
        # shared market encoder: raw price features -> latent observation of each stock
        self.encoder = T.nn.Linear(raw_dims, actor_dims)
        self.latent_optimizer = T.optim.Adam(self.encoder.parameters(), lr=lr_latent)

    def learn(self, memory):
        raw_states, actions, rewards, raw_states_, dones = memory.sample_buffer()
        device = self.agents[0].actor.device

        actor_states = [self.encoder(raw_states[:, i]) for i in range(self.n_agents)]
        actor_new_states = [self.encoder(raw_states_[:, i]).detach() for i in range(self.n_agents)]
        states = T.cat(actor_states, dim=1)
        states_ = T.cat(actor_new_states, dim=1)
        rewards = T.tensor(rewards, dtype=T.float).to(device)
        dones = T.tensor(dones).to(device)

        all_agents_new_actions = []
        all_agents_new_mu_actions = []
        old_agents_actions = []
        for agent_idx, agent in enumerate(self.agents):
            new_pi = agent.target_actor.forward(actor_new_states[agent_idx])
            all_agents_new_actions.append(new_pi)
            pi = agent.actor.forward(actor_states[agent_idx])
            all_agents_new_mu_actions.append(pi)
            old_agents_actions.append(actions[:, agent_idx])

        new_actions = T.cat([acts for acts in all_agents_new_actions], dim=1)
        mu = T.cat([acts.detach().clone() for acts in all_agents_new_mu_actions], dim=1)
        old_actions = T.cat([acts for acts in old_agents_actions], dim=1)
        critic_losses = []
        actor_losses = []
        for agent_idx, agent in enumerate(self.agents):
            critic_value_ = agent.target_critic.forward(states_, new_actions).flatten()
            critic_value_[dones[:, 0]] = 0.0
            critic_value = agent.critic.forward(states, old_actions).flatten()

            target = rewards[:, agent_idx] + agent.gamma * (critic_value_.detach().clone())
            agent.critic_loss = F.mse_loss(target, critic_value)

            agent.critic.optimizer.zero_grad()
            agent.actor.optimizer.zero_grad()

            agent.critic_loss.backward(retain_graph=True)
            agent.critic.optimizer.step()
            agent.actor_loss = -agent.critic.forward(states.detach(), mu).flatten().mean()
            agent.actor_loss.backward(retain_graph=True)

            agent.actor.optimizer.step()
            agent.update_network_parameters()
            with T.no_grad():
                actor_losses.append(agent.actor_loss.item())
                critic_losses.append(agent.critic_loss.item())
        if self.latent and self.latent_optimizer is not None:
            self.latent_optimizer.zero_grad()
            encoder_loss = T.tensor(critic_losses, dtype=T.float, requires_grad=True).mean() / np.max(critic_losses)
            encoder_loss.backward()
            self.latent_optimizer.step()
            self.encoder_loss = encoder_loss.item()
        self.critic_loss = np.mean(critic_losses) / np.max(critic_losses)
        self.actor_loss = np.mean(actor_losses)

    def learn_fixed(self, memory):
        """Reference update: own action keeps its graph, losses stay tensors."""
        raw_states, actions, rewards, raw_states_, dones = memory.sample_buffer()
        actor_states = [self.encoder(raw_states[:, i]) for i in range(self.n_agents)]
        actor_new_states = [self.encoder(raw_states_[:, i]).detach() for i in range(self.n_agents)]
        states = T.cat(actor_states, dim=1)
        states_ = T.cat(actor_new_states, dim=1)
        rewards = T.tensor(rewards, dtype=T.float)
        dones = T.tensor(dones)
        with T.no_grad():
            new_actions = T.cat([a.target_actor(s) for a, s in zip(self.agents, actor_new_states)], dim=1)
        old_actions = T.cat([actions[:, i] for i in range(self.n_agents)], dim=1)
        critic_losses = []
        self.latent_optimizer.zero_grad()
        for agent_idx, agent in enumerate(self.agents):
            with T.no_grad():
                critic_value_ = agent.target_critic(states_, new_actions).flatten()
                critic_value_[dones[:, 0]] = 0.0
                target = rewards[:, agent_idx] + agent.gamma * critic_value_
            critic_loss = F.mse_loss(target, agent.critic(states, old_actions).flatten())
            critic_losses.append(critic_loss)
            agent.critic.optimizer.zero_grad()
            critic_loss.backward(retain_graph=True)
            agent.critic.optimizer.step()

            acts = [a.actor(s.detach()) if i == agent_idx else a.actor(s.detach()).detach()
                    for i, (a, s) in enumerate(zip(self.agents, actor_states))]
            actor_loss = -agent.critic(states.detach(), T.cat(acts, dim=1)).flatten().mean()
            agent.actor.optimizer.zero_grad()
            actor_loss.backward()
            agent.actor.optimizer.step()
            agent.update_network_parameters()
        self.latent_optimizer.step()
        return [l.item() for l in critic_losses]
