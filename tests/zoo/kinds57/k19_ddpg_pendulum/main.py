"""
expect: GL001 networks.py:32
dynamic: confirm
source: none, invented

DDPG updates on a pendulum-like replay buffer. The critic in `networks.py` detaches the action it is
given inside its own `forward` (`torch.cat([obs, act.detach()], -1)`), presumably so that the critic
update never touches the actor. But the actor's objective, `-critic(obs, actor(obs)).mean()`, goes only
through that critic, and the actor optimizer steps only the actor: the detach inside the critic cuts the
one path the actor's gradient has. The asserts show the actor's parameters with `.grad` None and
unchanged after the updates, while the same loop with a critic that concatenates the action as given
(`QNet`) gives the actor gradients, moves it and ends with a larger Q advantage of the policy over
random actions.
"""
import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic

torch.manual_seed(0)
torch.set_num_threads(1)

OBS_DIM, ACT_DIM = 3, 1


class QNet(Critic):
    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)


def replay_batch(n=128):
    theta = torch.rand(n) * 2 * torch.pi - torch.pi
    theta_dot = torch.randn(n)
    obs = torch.stack([theta.cos(), theta.sin(), theta_dot], -1)
    act = 2 * torch.rand(n, ACT_DIM) - 1
    reward = -(theta ** 2 + 0.1 * theta_dot ** 2 + 0.001 * act.squeeze(-1) ** 2)
    new_dot = theta_dot + 0.15 * (-3 * theta.sin() + act.squeeze(-1))
    new_theta = theta + 0.05 * new_dot
    next_obs = torch.stack([new_theta.cos(), new_theta.sin(), new_dot], -1)
    return obs, act, reward, next_obs


def ddpg(critic_cls, updates=150, gamma=0.9, tau=0.05):
    torch.manual_seed(0)
    actor, critic = Actor(OBS_DIM, ACT_DIM), critic_cls(OBS_DIM, ACT_DIM)
    actor_targ, critic_targ = copy.deepcopy(actor), copy.deepcopy(critic)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    actor_w0 = [p.detach().clone() for p in actor.parameters()]
    eval_obs = replay_batch(512)[0]
    q_start = None
    for it in range(updates):
        obs, act, rew, next_obs = replay_batch()
        with torch.no_grad():
            target_q = rew + gamma * critic_targ(next_obs, actor_targ(next_obs))
        critic_loss = F.mse_loss(critic(obs, act), target_q)
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()

        actor_loss = -critic(obs, actor(obs)).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()

        with torch.no_grad():
            for net, targ in ((actor, actor_targ), (critic, critic_targ)):
                for p, tp in zip(net.parameters(), targ.parameters()):
                    tp.mul_(1 - tau).add_(tau * p)
    with torch.no_grad():
        policy_q = critic(eval_obs, actor(eval_obs)).mean().item()
        random_q = critic(eval_obs, 2 * torch.rand(512, ACT_DIM) - 1).mean().item()
    moved = any(not torch.equal(a, b) for a, b in zip(actor_w0, actor.parameters()))
    return actor, moved, policy_q - random_q


if __name__ == "__main__":
    actor, moved, advantage = ddpg(Critic)
    assert all(p.grad is None for p in actor.parameters())
    assert not moved

    actor, moved, advantage_ref = ddpg(QNet)
    assert all(p.grad is not None for p in actor.parameters())
    assert moved and advantage_ref > advantage, (advantage, advantage_ref)
    print(f"policy Q minus random-action Q: {advantage:.3f} with Critic vs {advantage_ref:.3f} with QNet")
