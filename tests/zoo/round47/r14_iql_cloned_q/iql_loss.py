"""Discrete implicit Q-learning loss that keeps its own stacked copy of the Q-network parameters."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class DiscreteIQLLoss(nn.Module):
    def __init__(self, actor, qvalue, value, num_actions, num_qvalue_nets=1,
                 gamma=0.99, expectile=0.7, temperature=3.0):
        super().__init__()
        self.actor = actor
        self.qvalue = qvalue
        self.value = value
        self.num_actions = num_actions
        self.num_qvalue_nets = num_qvalue_nets
        self.gamma = gamma
        self.expectile = expectile
        self.temperature = temperature
        self.qvalue_names = [name for name, _ in qvalue.named_parameters()]
        stacked = []
        for _, p in qvalue.named_parameters():
            ensemble = p.detach().unsqueeze(0).expand(num_qvalue_nets, *p.shape).clone()
            stacked.append(nn.Parameter(ensemble))
        self.qvalue_params = nn.ParameterList(stacked)
        self.target_qvalue_params = [p.detach().clone() for p in self.qvalue_params]

    def _q(self, params, obs, action_onehot):
        values = []
        for i in range(self.num_qvalue_nets):
            member = {name: p[i] for name, p in zip(self.qvalue_names, params)}
            values.append(functional_call(self.qvalue, member, (obs, action_onehot)))
        return torch.stack(values, dim=0)

    def update_target(self, tau=0.005):
        with torch.no_grad():
            for tgt, src in zip(self.target_qvalue_params, self.qvalue_params):
                tgt.mul_(1 - tau).add_(tau * src)

    def forward(self, batch):
        obs, action, reward, next_obs, done = batch
        onehot = F.one_hot(action, self.num_actions).float()

        with torch.no_grad():
            target_q = self._q(self.target_qvalue_params, obs, onehot).min(dim=0).values
        v = self.value(obs)
        diff = target_q - v
        weight = torch.where(diff > 0, torch.full_like(diff, self.expectile), torch.full_like(diff, 1 - self.expectile))
        loss_value = (weight * diff.pow(2)).mean()

        with torch.no_grad():
            td_target = reward + self.gamma * (1 - done) * self.value(next_obs)
        q = self._q(list(self.qvalue_params), obs, onehot)
        loss_qvalue = (q - td_target.unsqueeze(0)).pow(2).mean()

        with torch.no_grad():
            exp_adv = torch.exp(self.temperature * (target_q - v)).clamp(max=100.0).squeeze(-1)
        log_prob = torch.distributions.Categorical(logits=self.actor(obs)).log_prob(action)
        loss_actor = -(exp_adv * log_prob).mean()
        return {"loss_actor": loss_actor, "loss_qvalue": loss_qvalue, "loss_value": loss_value}
