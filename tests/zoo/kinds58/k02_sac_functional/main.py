"""
expect: none
dynamic: dismiss
source: none, invented

A functional SAC learner: the critic module holds two Q networks (critic.qa, critic.qb), each with
its own Adam optimizer, and learner_ops.optimize does zero_grad/backward/clip/step. Both critic
updates run first, and only then are fresh actions sampled and the policy loss built through
critic(obs, new_act), so the graph of the policy loss saves the critic weights after they were
stepped; nothing edits them before the policy backward. The temperature is tuned with its own
loss on detached log-probs. The asserts run several updates and check that the policy, both Q
networks and log_alpha change, and that the policy got a non-zero gradient through the critic.
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from learner_ops import optimize, soft_update


def mlp(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.SiLU())
    return nn.Sequential(*layers)


class SquashedGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.trunk = mlp([obs_dim, 128, 128])
        self.mu = nn.Linear(128, act_dim)
        self.log_std = nn.Linear(128, act_dim)

    def sample(self, obs):
        h = F.silu(self.trunk(obs))
        mu, log_std = self.mu(h), self.log_std(h).clamp(-5, 2)
        dist = torch.distributions.Normal(mu, log_std.exp())
        u = dist.rsample()
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1) - (2 * (math.log(2) - u - F.softplus(-2 * u))).sum(-1)
        return a, logp


class DoubleQ(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.qa = mlp([obs_dim + act_dim, 128, 128, 1])
        self.qb = mlp([obs_dim + act_dim, 128, 128, 1])

    def forward(self, obs, act):
        x = torch.cat([obs, act], -1)
        return self.qa(x).squeeze(-1), self.qb(x).squeeze(-1)


def sac_update(nets, opts, batch, log_alpha, target_entropy, gamma=0.99):
    obs, act, rew, nxt, done = batch
    with torch.no_grad():
        nxt_act, nxt_logp = nets["policy"].sample(nxt)
        q_next = torch.min(*nets["target"](nxt, nxt_act)) - log_alpha.exp() * nxt_logp
        y = rew + gamma * (1.0 - done) * q_next

    qa, qb = nets["critic"](obs, act)
    optimize(opts["qa"], F.mse_loss(qa, y))
    optimize(opts["qb"], F.mse_loss(qb, y))

    new_act, logp = nets["policy"].sample(obs)
    qa_pi, qb_pi = nets["critic"](obs, new_act)
    policy_loss = (log_alpha.exp().detach() * logp - torch.min(qa_pi, qb_pi)).mean()
    optimize(opts["policy"], policy_loss)

    alpha_loss = -(log_alpha * (logp.detach() + target_entropy)).mean()
    optimize(opts["alpha"], alpha_loss)
    soft_update(nets["target"], nets["critic"])
    return policy_loss.item()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    obs_dim, act_dim = 11, 3
    critic = DoubleQ(obs_dim, act_dim)
    nets = {"policy": SquashedGaussianPolicy(obs_dim, act_dim), "critic": critic,
            "target": copy.deepcopy(critic).requires_grad_(False)}
    log_alpha = torch.zeros((), requires_grad=True)
    opts = {
        "qa": torch.optim.Adam(critic.qa.parameters(), lr=3e-4),
        "qb": torch.optim.Adam(critic.qb.parameters(), lr=3e-4),
        "policy": torch.optim.Adam(nets["policy"].parameters(), lr=3e-4),
        "alpha": torch.optim.Adam([log_alpha], lr=3e-4),
    }
    snap = {k: [p.detach().clone() for p in m.parameters()]
            for k, m in [("pi", nets["policy"]), ("qa", critic.qa), ("qb", critic.qb)]}

    for _ in range(15):
        obs = torch.randn(128, obs_dim)
        act = torch.rand(128, act_dim) * 2 - 1
        rew = torch.cos(obs[:, 0]) - 0.1 * act.pow(2).sum(-1)
        batch = (obs, act, rew, obs + 0.1 * torch.randn_like(obs), torch.zeros(128))
        sac_update(nets, opts, batch, log_alpha, target_entropy=-float(act_dim))

    assert nets["policy"].mu.weight.grad is not None
    assert nets["policy"].mu.weight.grad.abs().sum() > 0
    for name, module in [("pi", nets["policy"]), ("qa", critic.qa), ("qb", critic.qb)]:
        moved = [not torch.equal(a, b) for a, b in zip(snap[name], module.parameters())]
        assert all(moved), name
    assert log_alpha.item() != 0.0
    print("sac functional: ok, log_alpha=%.5f" % log_alpha.item())


if __name__ == "__main__":
    main()
