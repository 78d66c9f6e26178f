"""
expect: GL001 74
dynamic: confirm
source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/issues/82

The question: the GRU states of a recurrent PPO policy are computed under
torch.no_grad during the rollout, so is it fine that the update does not
differentiate through h_(t-1)? The answer: the update recomputes the states inside
the graph. Here the update skips that and feeds the stored rollout features
straight into the actor and critic heads, so the recurrent core never receives a
gradient from the PPO loss. The asserts show the GRU weights stay fixed while the
heads train, and that recomputing the recurrence in the update trains the GRU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim=6, hidden=16, n_act=3):
        super().__init__()
        self.gru = nn.GRUCell(obs_dim, hidden)
        self.actor = nn.Linear(hidden, n_act)
        self.critic = nn.Linear(hidden, 1)

    def core(self, obs, h):
        return self.gru(obs, h)


class Rollout:
    def __init__(self):
        self.obs, self.hidden, self.actions, self.logp, self.returns = [], [], [], [], []


def collect(policy, T=16, n_env=4):
    buf = Rollout()
    h = torch.zeros(n_env, 16)
    with torch.no_grad():
        for t in range(T):
            obs = torch.randn(n_env, 6)
            h = policy.core(obs, h)
            dist = Categorical(logits=policy.actor(h))
            a = dist.sample()
            buf.obs.append(obs)
            buf.hidden.append(h)
            buf.actions.append(a)
            buf.logp.append(dist.log_prob(a))
            buf.returns.append((a == 1).float() + 0.1 * obs[:, 0])
    return buf


def ppo_loss(policy, feats, buf, clip=0.2):
    actions, old_logp, returns = (torch.cat(buf.actions), torch.cat(buf.logp), torch.cat(buf.returns))
    dist = Categorical(logits=policy.actor(feats))
    values = policy.critic(feats).squeeze(-1)
    adv = returns - values.detach()
    ratio = torch.exp(dist.log_prob(actions) - old_logp)
    pg = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
    return pg + 0.5 * F.mse_loss(values, returns)


class PPOUpdater:
    def __init__(self, policy, recompute=False):
        self.policy = policy
        self.recompute = recompute
        self.opt = torch.optim.Adam(policy.parameters(), lr=1e-2)

    def features(self, buf):
        if not self.recompute:
            return torch.cat(buf.hidden)
        h = torch.zeros_like(buf.hidden[0])
        feats = []
        for obs in buf.obs:
            h = self.policy.core(obs, h)
            feats.append(h)
        return torch.cat(feats)

    def update(self, buf, epochs=3):
        for _ in range(epochs):
            loss = ppo_loss(self.policy, self.features(buf), buf)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


for recompute in (False, True):
    torch.manual_seed(3)
    policy = RecurrentPolicy()
    gru0 = policy.gru.weight_hh.detach().clone()
    actor0 = policy.actor.weight.detach().clone()
    updater = PPOUpdater(policy, recompute=recompute)
    updater.update(collect(policy))
    assert not torch.equal(policy.actor.weight, actor0)
    if recompute:
        assert not torch.equal(policy.gru.weight_hh, gru0)
    else:
        assert policy.gru.weight_hh.grad is None
        assert torch.equal(policy.gru.weight_hh, gru0)
print("ok")
