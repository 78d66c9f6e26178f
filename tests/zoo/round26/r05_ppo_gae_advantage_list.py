"""
expect: none
dynamic: dismiss
source: https://github.com/seungeunrho/minimalRL/issues/33

minimalRL's PPO builds the GAE advantage from a detached TD error, walks it backwards
in a Python list and rebuilds it with torch.tensor(advantage_lst); the ratio is
exp(log pi_a - log prob_a) with the old probability stored from the rollout. The issue
asked whether the ratio (or the advantage) is wrongly cut. It is not: the advantage
is meant to be a constant weight, and the gradient must come through the ratio. Here a
small actor-critic agent on a contextual bandit uses the same structure inside its
train_net(); the asserts check the policy and value heads both get gradients, that the
list-rebuilt advantage equals a detached autograd version, and that the policy learns.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
GAMMA, LMBDA, EPS_CLIP, K_EPOCH = 0.98, 0.95, 0.1, 3


class PPO(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 64)
        self.fc_pi = nn.Linear(64, 2)
        self.fc_v = nn.Linear(64, 1)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-2)

    def pi(self, x):
        return F.softmax(self.fc_pi(F.relu(self.fc1(x))), dim=-1)

    def v(self, x):
        return self.fc_v(F.relu(self.fc1(x)))

    def advantages(self, s, r, s_prime, done_mask):
        td_target = r + GAMMA * self.v(s_prime) * done_mask
        delta = (td_target - self.v(s)).detach().numpy()
        advantage_lst, advantage = [], 0.0
        for delta_t in delta[::-1]:
            advantage = GAMMA * LMBDA * advantage + delta_t[0]
            advantage_lst.append([advantage])
        advantage_lst.reverse()
        return td_target, torch.tensor(advantage_lst, dtype=torch.float)

    def train_net(self, s, a, r, s_prime, done_mask, prob_a):
        for _ in range(K_EPOCH):
            td_target, advantage = self.advantages(s, r, s_prime, done_mask)
            pi_a = self.pi(s).gather(1, a)
            ratio = torch.exp(torch.log(pi_a) - torch.log(prob_a))
            surr1 = ratio * advantage
            surr2 = torch.clamp(ratio, 1 - EPS_CLIP, 1 + EPS_CLIP) * advantage
            loss = -torch.min(surr1, surr2) + F.smooth_l1_loss(self.v(s), td_target.detach())
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()


def rollout(model, n=32):
    s = torch.randn(n, 4)
    with torch.no_grad():
        probs = model.pi(s)
    a = torch.multinomial(probs, 1)
    r = ((s[:, :1] > 0).long() == a).float()      # reward 1 if action matches sign of s0
    return s, a, r, torch.randn(n, 4), torch.zeros(n, 1), probs.gather(1, a)


model = PPO()
s, a, r, s2, done, prob_a = rollout(model)
td_target, adv = model.advantages(s, r, s2, done)
with torch.no_grad():
    delta = td_target - model.v(s)
ref = torch.zeros_like(delta)
run = torch.zeros(1)
for t in reversed(range(delta.shape[0])):
    run = GAMMA * LMBDA * run + delta[t]
    ref[t] = run
assert torch.allclose(adv, ref, atol=1e-5) and not adv.requires_grad

pi_a = model.pi(s).gather(1, a)
loss = -(torch.exp(torch.log(pi_a) - torch.log(prob_a)) * adv).mean() \
    + F.smooth_l1_loss(model.v(s), td_target.detach())
loss.backward()
assert model.fc_pi.weight.grad.abs().sum() > 0 and model.fc_v.weight.grad.abs().sum() > 0
model.zero_grad()

def accuracy(m):
    s = torch.randn(2000, 4)
    return (m.pi(s).argmax(-1) == (s[:, 0] > 0).long()).float().mean().item()

before = accuracy(model)
for it in range(25):
    model.train_net(*rollout(model))
after = accuracy(model)
assert after > max(before, 0.8), (before, after)
print("ok: advantage is a constant weight by design; policy accuracy", round(before, 2), "->", round(after, 2))
