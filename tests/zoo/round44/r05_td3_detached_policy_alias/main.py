"""
expect: none
dynamic: dismiss
source: https://github.com/younggyoseo/FastTD3/issues/5

A FastTD3-style loop with parallel toy environments. Rollouts use
`actor_detach`, a copy of the actor whose weights were replaced by the
actor's `.data` tensors, and the target critic is moved by a Polyak update
written with `.data` and in-place foreach ops under no_grad. A reader of the
linked issue thought actor_detach was never trained; in fact it aliases the
live parameter storage, so each actor step is seen by the rollout policy
immediately, and nothing is ever backpropagated through it. Gradients flow
where they should: the critic from the TD loss with a target computed under
no_grad, the actor through the critic. The asserts check that the alias
shares storage and matches the actor output after training, that actor and
critic receive gradients and move, that the target critic tracks the critic
and has no gradient, and that the critic TD error falls.
"""
import torch
import torch.nn.functional as F

from agent import Actor, ReplayBuffer, TwinCritic, detached_alias, soft_update


def env_step(obs, act):
    reward = -((act - 0.5 * obs[:, :2]) ** 2).sum(-1, keepdim=True)
    next_obs = 0.9 * obs + 0.1 * torch.randn_like(obs)
    return reward, next_obs


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    obs_dim, act_dim, n_envs, gamma, tau = 4, 2, 16, 0.9, 0.05
    actor, critic = Actor(obs_dim, act_dim), TwinCritic(obs_dim, act_dim)
    critic_target = TwinCritic(obs_dim, act_dim)
    critic_target.load_state_dict(critic.state_dict())
    actor_detach = detached_alias(actor)
    policy = actor_detach.explore
    q_opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    pi_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    buffer = ReplayBuffer(obs_dim, act_dim)

    assert actor_detach.net[0].weight.data_ptr() == actor.net[0].weight.data_ptr()
    actor_w0 = actor.net[0].weight.clone()
    target_w0 = critic_target.q1[0].weight.clone()

    obs = torch.randn(n_envs, obs_dim)
    td_errors = []
    for step in range(200):
        act = policy(obs)
        rew, next_obs = env_step(obs, act)
        buffer.add(obs, act, rew, next_obs)
        obs = next_obs
        if step < 10:
            continue

        b_obs, b_act, b_rew, b_next = buffer.sample(64)
        with torch.no_grad():
            noise = (0.2 * torch.randn_like(b_act)).clamp(-0.5, 0.5)
            next_act = (actor(b_next) + noise).clamp(-1.0, 1.0)
            t1, t2 = critic_target(b_next, next_act)
            target = b_rew + gamma * torch.min(t1, t2)
        q1, q2 = critic(b_obs, b_act)
        q_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        q_opt.zero_grad()
        q_loss.backward()
        assert critic.q1[0].weight.grad.abs().sum() > 0
        q_opt.step()
        td_errors.append(q_loss.item())

        if step % 2 == 0:
            pi_loss = -critic(b_obs, actor(b_obs))[0].mean()
            pi_opt.zero_grad()
            pi_loss.backward()
            assert actor.net[0].weight.grad.abs().sum() > 0
            pi_opt.step()
            soft_update(critic, critic_target, tau)

    probe = torch.randn(8, obs_dim)
    with torch.no_grad():
        assert torch.equal(actor_detach(probe), actor(probe))
    assert not torch.equal(actor.net[0].weight, actor_w0)
    assert not torch.equal(critic_target.q1[0].weight, target_w0)
    assert all(p.grad is None for p in critic_target.parameters())
    gap_now = (critic_target.q1[0].weight - critic.q1[0].weight).abs().mean()
    gap_start = (target_w0 - critic.q1[0].weight).abs().mean()
    assert gap_now < gap_start
    assert sum(td_errors[-20:]) < sum(td_errors[:20]), (td_errors[:3], td_errors[-3:])
    print(f"TD loss {td_errors[0]:.3f} -> {td_errors[-1]:.3f}; rollout copy tracks the actor")
