"""
expect: GL005 76
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/38480

A Soft Actor-Critic training loop (the widely copied update_parameters layout) computes the
critic loss and the policy loss first, then steps the critic optimizer, then calls
policy_loss.backward(). The policy loss was built through critic(state, pi), whose saved weights
the critic step has just overwritten in place; from PyTorch 1.5 on this raises "modified by an
inplace operation" (older versions silently used the new weights). The agent below is a small
SAC on random replay batches; the asserts show the version-counter error with the original
ordering and that rebuilding the policy loss after the critic step lets both networks train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A = 6, 2


class QNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(S + A, 32), nn.ReLU(), nn.Linear(32, 1))
        self.q2 = nn.Sequential(nn.Linear(S + A, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        x = torch.cat([s, a], 1)
        return self.q1(x), self.q2(x)


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(S, 32), nn.ReLU())
        self.mean, self.log_std = nn.Linear(32, A), nn.Linear(32, A)

    def sample(self, s):
        h = self.body(s)
        mean, std = self.mean(h), self.log_std(h).clamp(-5, 2).exp()
        normal = torch.distributions.Normal(mean, std)
        x = normal.rsample()
        action = torch.tanh(x)
        log_prob = (normal.log_prob(x) - torch.log(1 - action.pow(2) + 1e-6)).sum(1, keepdim=True)
        return action, log_prob


class SAC:
    def __init__(self, gamma=0.99, alpha=0.2):
        self.gamma, self.alpha = gamma, alpha
        self.critic, self.critic_target = QNetwork(), QNetwork()
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.policy = GaussianPolicy()
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=3e-4)

    def update_parameters(self, batch, critic_step_first=True):
        s, a, r, s2, done = batch
        with torch.no_grad():
            a2, logp2 = self.policy.sample(s2)
            q1_t, q2_t = self.critic_target(s2, a2)
            target = r + (1 - done) * self.gamma * (torch.min(q1_t, q2_t) - self.alpha * logp2)
        qf1, qf2 = self.critic(s, a)
        qf_loss = F.mse_loss(qf1, target) + F.mse_loss(qf2, target)

        pi, log_pi = self.policy.sample(s)
        qf1_pi, qf2_pi = self.critic(s, pi)
        policy_loss = (self.alpha * log_pi - torch.min(qf1_pi, qf2_pi)).mean()

        if critic_step_first:
            self.critic_optim.zero_grad()
            qf_loss.backward()
            self.critic_optim.step()
            self.policy_optim.zero_grad()
            policy_loss.backward()
            self.policy_optim.step()
        else:
            self.critic_optim.zero_grad()
            qf_loss.backward()
            self.critic_optim.step()
            pi, log_pi = self.policy.sample(s)
            qf1_pi, qf2_pi = self.critic(s, pi)
            policy_loss = (self.alpha * log_pi - torch.min(qf1_pi, qf2_pi)).mean()
            self.policy_optim.zero_grad()
            policy_loss.backward()
            self.policy_optim.step()
        return qf_loss.item(), policy_loss.item()


def replay_batch(n=64):
    return (torch.randn(n, S), torch.rand(n, A) * 2 - 1, torch.randn(n, 1),
            torch.randn(n, S), torch.zeros(n, 1))


agent = SAC()
init = ({k: v.clone() for k, v in agent.critic.state_dict().items()},
        {k: v.clone() for k, v in agent.policy.state_dict().items()})
err = None
try:
    agent.update_parameters(replay_batch())
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err

agent = SAC()
agent.critic.load_state_dict(init[0])
agent.policy.load_state_dict(init[1])
w_pi = agent.policy.mean.weight.detach().clone()
w_q = agent.critic.q1[0].weight.detach().clone()
for _ in range(3):
    agent.update_parameters(replay_batch(), critic_step_first=False)
assert not torch.equal(w_pi, agent.policy.mean.weight)
assert not torch.equal(w_q, agent.critic.q1[0].weight)
print("q11 ok: critic optimizer step before the policy backward invalidates the shared graph")
