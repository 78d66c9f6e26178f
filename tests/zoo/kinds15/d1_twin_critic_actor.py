"""
expect: GL005 45
expect: GL005 50
dynamic: confirm
source: kind D

A TD3-style update computes the actor loss through both twin critics first, then trains critic one
and critic two, each with its own loss, backward and optimizer step, and only afterwards
backpropagates the actor loss recorded before the two steps. Both steps overwrite critic weights
that the actor loss's graph saved, so the asserts catch a RuntimeError mentioning "inplace"; a fixed
update that recomputes the actor loss after the critic steps runs and trains the actor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)

S, A = 4, 2


def make_critic():
    return nn.Sequential(nn.Linear(S + A, 32), nn.ReLU(), nn.Linear(32, 1))


actor = nn.Sequential(nn.Linear(S, 32), nn.ReLU(), nn.Linear(32, A), nn.Tanh())
critic_a, critic_b = make_critic(), make_critic()
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
opt_a = torch.optim.Adam(critic_a.parameters(), lr=1e-3)
opt_b = torch.optim.Adam(critic_b.parameters(), lr=1e-3)

states = torch.randn(16, S)
actions = torch.rand(16, A) * 2 - 1
td_target = torch.randn(16, 1)


def update():
    sa_pi = torch.cat([states, actor(states)], dim=-1)
    actor_loss = -torch.min(critic_a(sa_pi), critic_b(sa_pi)).mean()

    sa = torch.cat([states, actions], dim=-1)
    loss_a = F.mse_loss(critic_a(sa), td_target)
    opt_a.zero_grad()
    loss_a.backward()
    opt_a.step()

    loss_b = F.mse_loss(critic_b(sa), td_target)
    opt_b.zero_grad()
    loss_b.backward()
    opt_b.step()

    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()


try:
    update()
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "inplace" in str(err), err
    print("caught:", str(err).splitlines()[0][:90])


def update_v2():
    sa = torch.cat([states, actions], dim=-1)
    loss_a = F.mse_loss(critic_a(sa), td_target)
    opt_a.zero_grad()
    loss_a.backward()
    opt_a.step()
    loss_b = F.mse_loss(critic_b(sa), td_target)
    opt_b.zero_grad()
    loss_b.backward()
    opt_b.step()
    sa_pi = torch.cat([states, actor(states)], dim=-1)
    actor_loss = -torch.min(critic_a(sa_pi), critic_b(sa_pi)).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()


w0 = actor[0].weight.detach().clone()
update_v2()
assert not torch.equal(w0, actor[0].weight.detach())
print("ok")
