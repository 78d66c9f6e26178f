"""
expect: none
dynamic: dismiss
source: https://github.com/tinkoff-ai/CORL/pull/46

Implicit Q-Learning as written in CORL's IQL trainer (the offline-to-online
version added in this pull request): the value net is fit by expectile
regression to target-Q values computed under torch.no_grad(); the Q nets are
regressed onto r + gamma * next_v.detach(); the policy is trained by
advantage-weighted behaviour cloning with weights exp(beta * adv.detach()),
where adv is the tensor returned by the value update; the target Q net is
updated by Polyak averaging under no_grad. Every one of those cuts is a
deliberate stop-gradient: targets must not be trained towards the prediction,
and the advantage is only a per-sample weight for the actor (it was also built
before the value optimizer stepped, so back-propagating through it would reach
freed/stale value-net state). The asserts show that over 300 offline steps all
three learners move and their losses fall, that the policy update leaves no
gradient on the value or Q nets, and that the target net tracks the online Q net.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A = 5, 2
GAMMA, TAU, BETA, IQL_TAU, EXP_ADV_MAX = 0.99, 0.005, 3.0, 0.7, 100.0


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, o))


class TwinQ(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1, self.q2 = mlp(S + A, 1), mlp(S + A, 1)

    def both(self, s, a):
        sa = torch.cat([s, a], 1)
        return self.q1(sa).squeeze(-1), self.q2(sa).squeeze(-1)

    def forward(self, s, a):
        return torch.min(*self.both(s, a))


def asymmetric_l2_loss(u, tau):
    return torch.mean(torch.abs(tau - (u < 0).float()) * u ** 2)


class IQL:
    def __init__(self):
        self.qf, self.vf, self.actor = TwinQ(), mlp(S, 1), mlp(S, A)
        self.q_target = copy.deepcopy(self.qf).requires_grad_(False)
        self.q_opt = torch.optim.Adam(self.qf.parameters(), lr=3e-4)
        self.v_opt = torch.optim.Adam(self.vf.parameters(), lr=3e-4)
        self.a_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-4)

    def _update_v(self, obs, act, log):
        with torch.no_grad():
            target_q = self.q_target(obs, act)
        v = self.vf(obs).squeeze(-1)
        adv = target_q - v
        v_loss = asymmetric_l2_loss(adv, IQL_TAU)
        log["v"] = v_loss.item()
        self.v_opt.zero_grad()
        v_loss.backward()
        self.v_opt.step()
        return adv

    def _update_q(self, next_v, obs, act, rew, done, log):
        targets = rew + (1.0 - done) * GAMMA * next_v.detach()
        qs = self.qf.both(obs, act)
        q_loss = sum(F.mse_loss(q, targets) for q in qs) / len(qs)
        log["q"] = q_loss.item()
        self.q_opt.zero_grad()
        q_loss.backward()
        self.q_opt.step()
        with torch.no_grad():
            for tp, p in zip(self.q_target.parameters(), self.qf.parameters()):
                tp.data.copy_((1 - TAU) * tp.data + TAU * p.data)

    def _update_policy(self, adv, obs, act, log):
        exp_adv = torch.exp(BETA * adv.detach()).clamp(max=EXP_ADV_MAX)
        bc_losses = ((self.actor(obs) - act) ** 2).sum(-1)
        policy_loss = torch.mean(exp_adv * bc_losses)
        log["pi"] = policy_loss.item()
        self.a_opt.zero_grad()
        self.vf.zero_grad(set_to_none=True)
        self.qf.zero_grad(set_to_none=True)
        policy_loss.backward()
        log["leak"] = any(p.grad is not None for p in list(self.vf.parameters()) + list(self.qf.parameters()))
        self.a_opt.step()

    def train(self, batch):
        obs, act, rew, next_obs, done = batch
        log = {}
        with torch.no_grad():
            next_v = self.vf(next_obs).squeeze(-1)
        adv = self._update_v(obs, act, log)
        self._update_q(next_v, obs, act, rew, done, log)
        self._update_policy(adv, obs, act, log)
        return log


# offline dataset from a noisy behaviour policy on a toy linear system
N = 4096
W = torch.randn(S, A) * 0.5
obs = torch.randn(N, S)
act = torch.tanh(obs @ W) + 0.3 * torch.randn(N, A)
rew = -((act - torch.tanh(obs @ W)) ** 2).sum(1) + 0.1 * obs[:, 0]
next_obs = obs * 0.9 + 0.1 * torch.randn(N, S)
done = (torch.rand(N) < 0.05).float()

agent = IQL()
start = {n: [p.detach().clone() for p in m.parameters()] for n, m in
         (("q", agent.qf), ("v", agent.vf), ("pi", agent.actor))}
gen = torch.Generator().manual_seed(0)
logs = []
for step in range(300):
    idx = torch.randint(0, N, (256,), generator=gen)
    logs.append(agent.train((obs[idx], act[idx], rew[idx], next_obs[idx], done[idx])))

for name, m in (("q", agent.qf), ("v", agent.vf), ("pi", agent.actor)):
    assert any(not torch.equal(b, p.detach()) for b, p in zip(start[name], m.parameters())), name


def avg(key, part):
    return sum(l[key] for l in part) / len(part)


for key in ("q", "pi"):
    assert avg(key, logs[-30:]) < avg(key, logs[:30]), key
assert avg("v", logs[-30:]) < avg("v", logs[5:35]), "v"
assert not any(l["leak"] for l in logs), "policy loss must not reach V or Q"
d_tgt = sum(((tp - p) ** 2).sum() for tp, p in zip(agent.q_target.parameters(), agent.qf.parameters()))
d_init = sum(((b - p) ** 2).sum() for b, p in zip(start["q"], agent.qf.parameters()))
assert d_tgt < d_init, (d_tgt, d_init)
print("IQL: q %.3f -> %.3f, pi %.3f -> %.3f, v %.4f -> %.4f"
      % (avg("q", logs[:30]), avg("q", logs[-30:]), avg("pi", logs[:30]), avg("pi", logs[-30:]),
         avg("v", logs[5:35]), avg("v", logs[-30:])))
