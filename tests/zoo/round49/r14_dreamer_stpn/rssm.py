"""Latent dynamics model with a short-term-plasticity recurrent cell whose plastic state lives on the module."""
import torch
import torch.nn as nn


class PlasticCell(nn.Module):
    """h_t = tanh(W x_t + F_t x_t);  F_{t+1} = decay * F_t + eta * h_t x_t^T  (Hebbian short-term plasticity)."""

    def __init__(self, in_dim, hidden, decay=0.9, eta=0.1):
        super().__init__()
        self.inp = nn.Linear(in_dim, hidden)
        self.decay = decay
        self.eta = eta

    def states_init(self, batch_size):
        return torch.zeros(batch_size, self.inp.out_features, self.inp.in_features)

    def forward(self, x, plastic):
        h = torch.tanh(self.inp(x) + torch.bmm(plastic, x.unsqueeze(2)).squeeze(2))
        plastic = self.decay * plastic + self.eta * h.unsqueeze(2) * x.unsqueeze(1)
        return h, plastic


class PlasticRSSM(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2, hidden=8, batch_size=4):
        super().__init__()
        self.cell = PlasticCell(obs_dim + act_dim, hidden)
        self.decoder = nn.Linear(hidden, obs_dim)
        self.reward_head = nn.Linear(hidden, 1)
        # the plastic state is created once and then carried from training batch to training batch
        self._plastic_train = self.cell.states_init(batch_size)

    def observe(self, obs_seq, act_seq):
        preds, rewards = [], []
        for t in range(obs_seq.shape[1]):
            x = torch.cat([obs_seq[:, t], act_seq[:, t]], dim=-1)
            h, self._plastic_train = self.cell(x, self._plastic_train)
            preds.append(self.decoder(h))
            rewards.append(self.reward_head(h))
        return torch.stack(preds, 1), torch.stack(rewards, 1)
