"""
expect: none
dynamic: dismiss
source: https://github.com/lweitkamp/option-critic-pytorch/issues/2

The issue asks whether Q[option] also needs a detach in the actor loss; the author
answers that Q is already detached earlier because the actor loss must not update
the critic. Here the option-critic learner detaches Q in the termination and
intra-option policy terms on purpose, while the critic is trained by its own TD
loss. The asserts check that the actor loss alone gives the policy and termination
heads a gradient and the Q head none, and that the TD loss does train the Q head.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class OptionCriticNet(nn.Module):
    def __init__(self, obs=6, n_opt=2, n_act=3, hid=32):
        super().__init__()
        self.n_opt, self.n_act = n_opt, n_act
        self.body = nn.Sequential(nn.Linear(obs, hid), nn.ReLU())
        self.q = nn.Linear(hid, n_opt)
        self.term = nn.Linear(hid, n_opt)
        self.pi = nn.Linear(hid, n_opt * n_act)

    def forward(self, s):
        f = self.body(s)
        return f, self.q(f), torch.sigmoid(self.term(f)), self.pi(f).view(-1, self.n_opt, self.n_act)


class OptionCriticLearner:
    def __init__(self, net, gamma=0.99, xi=0.01, ent=0.01):
        self.net, self.gamma, self.xi, self.ent = net, gamma, xi, ent

    def actor_loss(self, s, option, action, reward, s_next, done):
        idx = torch.arange(s.size(0))
        _, q, beta, logits = self.net(s)
        _, q_next, beta_next, _ = self.net(s_next)
        q = q.detach()
        q_next = q_next.detach()
        target = reward + (1 - done) * self.gamma * (
            (1 - beta_next[idx, option]) * q_next[idx, option] + beta_next[idx, option] * q_next.max(1)[0])
        term_loss = beta_next[idx, option] * (q_next[idx, option] - q_next.max(1)[0] + self.xi) * (1 - done)
        dist = Categorical(logits=logits[idx, option])
        policy_loss = -dist.log_prob(action) * (target - q[idx, option]) - self.ent * dist.entropy()
        return (term_loss + policy_loss).mean()

    def critic_loss(self, s, option, reward, s_next, done):
        idx = torch.arange(s.size(0))
        _, q, _, _ = self.net(s)
        with torch.no_grad():
            _, q_next, beta_next, _ = self.net(s_next)
            y = reward + (1 - done) * self.gamma * (
                (1 - beta_next[idx, option]) * q_next[idx, option] + beta_next[idx, option] * q_next.max(1)[0])
        return F.mse_loss(q[idx, option], y)


net = OptionCriticNet()
learner = OptionCriticLearner(net)
B = 16
s, s_next = torch.randn(B, 6), torch.randn(B, 6)
option, action = torch.randint(0, 2, (B,)), torch.randint(0, 3, (B,))
reward, done = torch.randn(B), (torch.rand(B) < 0.1).float()

learner.actor_loss(s, option, action, reward, s_next, done).backward()
assert net.pi.weight.grad.abs().sum() > 0
assert net.term.weight.grad.abs().sum() > 0
assert net.q.weight.grad is None
net.zero_grad(set_to_none=True)

learner.critic_loss(s, option, reward, s_next, done).backward()
assert net.q.weight.grad.abs().sum() > 0
assert net.pi.weight.grad is None
print("ok")
