"""
expect: GL001 40
expect: GL001 41
expect: GL001 42
dynamic: confirm
source: https://github.com/reiniscimurs/DRL-robot-navigation/issues/12

A TD3 agent for laser-based robot navigation builds its twin critic by calling the second
layers and then redoing the product with `layer_2_s.weight.data`, `layer_2_a.weight.data` and
`layer_2_a.bias.data`; in the thread a user replaced this critic with plain layer calls. Reading
`.data` cuts those weights out of autograd, so the critic's middle layers never learn while the
actor and the outer critic layers do. This program keeps the same critic shape on random
transitions and asserts that layer_2_s/layer_2_a get no gradient and never move, while the
rewritten critic trains them.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
S, A = 10, 2


class Critic(nn.Module):
    def __init__(self, plain=False):
        super().__init__()
        self.plain = plain
        self.layer_1 = nn.Linear(S, 64)
        self.layer_2_s = nn.Linear(64, 48)
        self.layer_2_a = nn.Linear(A, 48)
        self.layer_3 = nn.Linear(48, 1)

    def forward(self, s, a):
        s1 = F.relu(self.layer_1(s))
        if not self.plain:
            self.layer_2_s(s1)
            self.layer_2_a(a)
            s11 = torch.mm(s1, self.layer_2_s.weight.data.t())
            s12 = torch.mm(a, self.layer_2_a.weight.data.t())
            s1 = F.relu(s11 + s12 + self.layer_2_a.bias.data)
        else:
            s1 = F.relu(self.layer_2_s(s1) + self.layer_2_a(a))
        return self.layer_3(s1)


class TD3:
    def __init__(self, plain):
        torch.manual_seed(2)
        self.actor = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, A), nn.Tanh())
        self.critic = Critic(plain)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), 1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), 1e-3)

    def train_step(self, s, a, r, s2, done, it):
        with torch.no_grad():
            a2 = self.actor(s2)
            target_q = r + 0.99 * (1 - done) * self.critic_target(s2, a2)
        critic_loss = F.mse_loss(self.critic(s, a), target_q)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        mid_grad = self.critic.layer_2_s.weight.grad
        self.critic_opt.step()
        if it % 2 == 0:
            actor_loss = -self.critic(s, self.actor(s)).mean()
            self.actor_opt.zero_grad()
            actor_loss.backward()
            self.actor_opt.step()
        return mid_grad


def run(plain):
    agent = TD3(plain)
    w0 = agent.critic.layer_2_s.weight.detach().clone()
    a0 = agent.actor[0].weight.detach().clone()
    grads = []
    for it in range(20):
        s, s2 = torch.randn(32, S), torch.randn(32, S)
        a = torch.rand(32, A) * 2 - 1
        r, done = torch.randn(32, 1), torch.zeros(32, 1)
        grads.append(agent.train_step(s, a, r, s2, done, it))
    moved = (agent.critic.layer_2_s.weight.detach() - w0).abs().max().item()
    actor_moved = (agent.actor[0].weight.detach() - a0).abs().max().item()
    return grads, moved, actor_moved


grads, moved, actor_moved = run(plain=False)
print(f"reported: layer_2_s grad={grads[-1]} moved={moved:.1e} actor moved={actor_moved:.1e}")
assert all(g is None for g in grads) and moved == 0.0
assert actor_moved > 0, "the actor still trains, so nothing looks wrong"

grads_f, moved_f, _ = run(plain=True)
print(f"fixed: layer_2_s moved={moved_f:.1e}")
assert grads_f[-1] is not None and moved_f > 1e-4
print("OK")
