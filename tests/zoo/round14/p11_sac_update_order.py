"""
expect: GL005 65
dynamic: confirm
source: https://github.com/mimoralea/gdrl/issues/13

The issue is a note for readers who run the book's SAC example on PyTorch 1.5 or later and
get the in-place operation error inside optimize_model; the forum fix it quotes reorders the
updates. This program rebuilds that SAC update: the policy loss is built through both online
Q networks, the Q networks' optimizer steps on the value loss, and only afterwards is
policy_loss.backward() called, so the Q weights saved by the policy graph have been changed
in place. The asserts catch the RuntimeError mentioning "inplace" and check that updating
the policy before the Q networks trains all three networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 64), nn.ReLU(), nn.Linear(64, o))


class SACAgent:
    def __init__(self, s=5, a=2, gamma=0.99):
        self.policy = mlp(s, 2 * a)
        self.q_a, self.q_b = mlp(s + a, 1), mlp(s + a, 1)
        self.tq_a, self.tq_b = mlp(s + a, 1), mlp(s + a, 1)
        self.tq_a.load_state_dict(self.q_a.state_dict())
        self.tq_b.load_state_dict(self.q_b.state_dict())
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.policy_opt = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.value_opt = torch.optim.Adam(list(self.q_a.parameters()) + list(self.q_b.parameters()), lr=3e-4)
        self.gamma = gamma

    def sample(self, states):
        mean, log_std = self.policy(states).chunk(2, dim=-1)
        dist = torch.distributions.Normal(mean, log_std.clamp(-5, 2).exp())
        raw = dist.rsample()
        act = torch.tanh(raw)
        logp = (dist.log_prob(raw) - torch.log(1 - act.pow(2) + 1e-6)).sum(-1, keepdim=True)
        return act, logp

    def build_losses(self, states, actions, rewards, next_states, dones):
        alpha = self.log_alpha.exp().detach()
        cur_act, logp = self.sample(states)
        sa = torch.cat([states, cur_act], dim=1)
        q_pi = torch.min(self.q_a(sa), self.q_b(sa))
        policy_loss = (alpha * logp - q_pi).mean()

        with torch.no_grad():
            nxt_act, nxt_logp = self.sample(next_states)
            nsa = torch.cat([next_states, nxt_act], dim=1)
            q_next = torch.min(self.tq_a(nsa), self.tq_b(nsa)) - alpha * nxt_logp
            target = rewards + self.gamma * q_next * (1 - dones)
        sa_taken = torch.cat([states, actions], dim=1)
        value_loss = F.mse_loss(self.q_a(sa_taken), target) + F.mse_loss(self.q_b(sa_taken), target)
        return policy_loss, value_loss

    def optimize_value_first(self, batch):
        policy_loss, value_loss = self.build_losses(*batch)
        self.value_opt.zero_grad()
        value_loss.backward()
        self.value_opt.step()
        self.policy_opt.zero_grad()
        policy_loss.backward()
        self.policy_opt.step()

    def optimize_policy_first(self, batch):
        policy_loss, value_loss = self.build_losses(*batch)
        self.policy_opt.zero_grad()
        policy_loss.backward()
        self.policy_opt.step()
        self.value_opt.zero_grad()
        value_loss.backward()
        self.value_opt.step()


B = 32
batch = (torch.randn(B, 5), torch.rand(B, 2) * 2 - 1, torch.randn(B, 1), torch.randn(B, 5), torch.zeros(B, 1))

agent = SACAgent()
raised = False
try:
    agent.optimize_value_first(batch)
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised

agent = SACAgent()
snap = {n: [p.detach().clone() for p in m.parameters()] for n, m in
        [("pi", agent.policy), ("qa", agent.q_a), ("qb", agent.q_b)]}
agent.optimize_policy_first(batch)
for name, mod in [("pi", agent.policy), ("qa", agent.q_a), ("qb", agent.q_b)]:
    assert any(not torch.equal(a, b) for a, b in zip(snap[name], mod.parameters())), name
print("ok: Q-network step before the policy backward raises the in-place error")
