import torch
import torch.nn as nn
import torch.nn.functional as F


def build_nets(obs_dim, n_actions, hidden=64):
    return {
        "policy": nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions)),
        "critic": nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1)),
    }


def ac_losses(nets, batch, fresh_value_pass=False, ent_coef=0.01):
    obs, actions, returns = batch["obs"], batch["actions"], batch["returns"]
    nets["policy"].train()
    nets["critic"].train()
    logits = nets["policy"](obs)
    dist = torch.distributions.Categorical(logits=logits)
    values = nets["critic"](obs).squeeze(-1).detach()
    advantages = returns - values
    policy_loss = -(dist.log_prob(actions) * advantages).mean() - ent_coef * dist.entropy().mean()
    if fresh_value_pass:
        value_pred = nets["critic"](obs).squeeze(-1)
    else:
        value_pred = values
    value_loss = F.mse_loss(value_pred, returns)
    return policy_loss, value_loss
