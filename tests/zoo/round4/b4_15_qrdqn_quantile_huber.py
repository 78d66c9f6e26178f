"""expect: none
dynamic: none
source: https://github.com/toshikwa/fqf-iqn-qrdqn.pytorch/issues/14

QR-DQN update: the online network predicts N return quantiles per action, the
target quantiles come from a target network evaluated under torch.no_grad()
(an intended stop-gradient), and the quantile Huber loss weights each
element by |tau - 1{td < 0}|, with the indicator computed on `td.detach()`.
The indicator is piecewise constant, so detaching it changes nothing about the
gradient; the Huber term itself still carries the full gradient of td back to
the online network, which learns normally.
"""
import copy

import torch
import torch.nn as nn


class QuantileNet(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2, n_quantiles=8):
        super().__init__()
        self.n_actions, self.n_quantiles = n_actions, n_quantiles
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions * n_quantiles))

    def forward(self, obs):
        return self.net(obs).view(-1, self.n_actions, self.n_quantiles)


def quantile_huber_loss(td_errors, taus, kappa=1.0):
    abs_td = td_errors.abs()
    huber = torch.where(abs_td <= kappa, 0.5 * td_errors.pow(2), kappa * (abs_td - 0.5 * kappa))
    weight = torch.abs(taus[..., None] - (td_errors.detach() < 0).float())
    return (weight * huber / kappa).sum(dim=1).mean()


def update(online, target, optim, batch, gamma=0.99):
    obs, act, rew, nxt, done = batch
    n = online.n_quantiles
    taus = (torch.arange(n, dtype=torch.float32) + 0.5) / n
    current = online(obs)[torch.arange(obs.shape[0]), act]
    with torch.no_grad():
        next_q = target(nxt)
        best = next_q.mean(-1).argmax(-1)
        next_quant = next_q[torch.arange(obs.shape[0]), best]
        target_quant = rew[:, None] + gamma * (1 - done[:, None]) * next_quant
    td = target_quant[:, None, :] - current[:, :, None]
    loss = quantile_huber_loss(td, taus.view(1, n))
    optim.zero_grad()
    loss.backward()
    optim.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    online = QuantileNet()
    target = copy.deepcopy(online)
    optim = torch.optim.Adam(online.parameters(), lr=1e-2)
    B = 16
    batch = (torch.randn(B, 4), torch.randint(0, 2, (B,)), torch.randn(B),
             torch.randn(B, 4), torch.zeros(B))
    losses = [update(online, target, optim, batch) for _ in range(30)]
    assert online.net[0].weight.grad is not None and online.net[0].weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in target.parameters())
    assert losses[-1] < 0.5 * losses[0]
    print("quantile regression trains; loss %.3f -> %.3f" % (losses[0], losses[-1]))


if __name__ == "__main__":
    main()
