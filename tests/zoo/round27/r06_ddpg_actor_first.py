"""
expect: GL005 57
dynamic: confirm
source: https://github.com/QasimWani/RL-Unity/issues/5

A DDPG agent for a Unity control task failed in the actor/critic update with
"modified by an inplace operation ... output 0 of TBackward, is at version
2; expected version 1". In this reproduction the agent builds both losses
from one batch, and the critic's bootstrap target runs the (trainable) actor
on the next states. learn() then steps the actor optimizer before the critic
loss is backpropagated, so the actor weights saved in the critic-loss graph
were already rewritten in place. The asserts show the version error and that
updating the critic first, with the target under no_grad, trains both nets.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, B = 8, 2, 32


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, A), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(S + A, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], 1))


class Agent:
    def __init__(self, gamma=0.99):
        self.actor, self.critic = Actor(), Critic()
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma

    def learn(self, s, a, r, s2, done):
        q_target = r + self.gamma * (1 - done) * self.critic(s2, self.actor(s2))
        critic_loss = F.mse_loss(self.critic(s, a), q_target)
        actor_loss = -self.critic(s, self.actor(s)).mean()

        self.actor_opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        self.actor_opt.step()

        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

    def learn_fixed(self, s, a, r, s2, done):
        with torch.no_grad():
            q_target = r + self.gamma * (1 - done) * self.critic(s2, self.actor(s2))
        critic_loss = F.mse_loss(self.critic(s, a), q_target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        actor_loss = -self.critic(s, self.actor(s)).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()


s, a = torch.randn(B, S), torch.rand(B, A) * 2 - 1
r, s2, done = torch.randn(B, 1), torch.randn(B, S), torch.zeros(B, 1)

agent = Agent()
err = None
try:
    agent.learn(s, a, r, s2, done)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

torch.manual_seed(0)
ok = Agent()
a0 = ok.actor.net[2].weight.detach().clone()
c0 = ok.critic.net[2].weight.detach().clone()
for _ in range(3):
    ok.learn_fixed(s, a, r, s2, done)
assert not torch.equal(a0, ok.actor.net[2].weight)
assert not torch.equal(c0, ok.critic.net[2].weight)
print("ok: actor step before critic backward breaks the graph; reordered update trains")
