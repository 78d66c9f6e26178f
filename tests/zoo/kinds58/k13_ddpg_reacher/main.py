"""
expect: GL001 networks.py:30
dynamic: confirm
source: none, invented

DDPG on a toy point-reacher task. The critic in networks.py starts its forward with
action = action.detach(), presumably written with replay-buffer actions in mind, and then applies
its own layers. The actor update calls critic(obs, actor(obs)), so the actor's output enters the
critic only through that detached copy: the actor loss still backpropagates into the critic
layers, but no gradient ever reaches the actor, whose parameters stay at their initial values while
the critic learns normally. The asserts run the training loop and show every actor .grad is None
and the actor weights are unchanged; with CriticV2 (same layers, no detach) the actor receives
non-zero gradients, its weights move and its return from held-out start states improves.
"""
import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic, CriticV2

OBS, ACT = 6, 2


def env_step(obs, act):
    pos, goal = obs[:, :2], obs[:, 2:4]
    new_pos = (pos + 0.5 * act).clamp(-1, 1)
    reward = -(new_pos - goal).norm(dim=-1, keepdim=True)
    vel = new_pos - pos
    return torch.cat([new_pos, goal, vel], -1), reward


def random_states(n):
    return torch.cat([torch.rand(n, 4) * 2 - 1, torch.zeros(n, 2)], -1)


def train(critic_cls, iters=60, gamma=0.5, tau=0.05):
    torch.manual_seed(0)
    actor, critic = Actor(OBS, ACT), critic_cls(OBS, ACT)
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    actor_w0 = [p.detach().clone() for p in actor.parameters()]
    q_trace = []
    for _ in range(iters):
        obs = random_states(128)
        with torch.no_grad():
            act = (actor(obs) + 0.3 * torch.randn(128, ACT)).clamp(-1, 1)
            nxt, rew = env_step(obs, act)
            y = rew + gamma * critic_t(nxt, actor_t(nxt))
        c_loss = F.mse_loss(critic(obs, act), y)
        c_opt.zero_grad()
        c_loss.backward()
        c_opt.step()

        a_loss = -critic(obs, actor(obs)).mean()
        a_opt.zero_grad()
        a_loss.backward()
        a_opt.step()
        q_trace.append(-a_loss.item())

        with torch.no_grad():
            for net, tgt in ((actor, actor_t), (critic, critic_t)):
                for p, pt in zip(net.parameters(), tgt.parameters()):
                    pt.lerp_(p, tau)
    actor_moved = any(not torch.equal(a, b) for a, b in zip(actor_w0, actor.parameters()))
    return actor, critic, actor_moved


def policy_return(actor, n=256):
    torch.manual_seed(123)
    obs, total = random_states(n), 0.0
    with torch.no_grad():
        for _ in range(10):
            obs, r = env_step(obs, actor(obs))
            total += r.mean().item()
    return total


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    actor, critic, actor_moved = train(Critic)
    assert all(p.grad is None for p in actor.parameters())
    assert not actor_moved
    assert critic.q_out.weight.grad.abs().sum() > 0
    base = policy_return(actor)

    actor, critic, actor_moved = train(CriticV2, iters=400)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in actor.parameters())
    assert actor_moved
    improved = policy_return(actor)
    assert improved > base, (base, improved)
    print("ddpg reacher: ok, return %.3f -> %.3f" % (base, improved))


if __name__ == "__main__":
    main()
