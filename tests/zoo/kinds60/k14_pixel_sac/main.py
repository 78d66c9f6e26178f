"""
expect: none
dynamic: dismiss
source: none, invented

Pixel-based SAC in the style of SAC-AE, over two files. networks.py defines a conv encoder that the actor and
the critic share, and both `Actor.forward` and `Critic.forward` take a `detach_encoder` argument:
`h = h.detach() if detach_encoder else h`. The training script, as run, passes `detach_encoder=True` in the
actor update (to the actor and to the critic it queries), so the actor's loss never reaches the encoder. That
is the intended SAC-AE arrangement, not a lost path: the encoder is in the critic's optimizer
(`Adam(critic.parameters())`) and trains through the critic's TD loss, where the flag is left False, while the
actor's optimizer holds only the actor's own MLP. The asserts check that the encoder's weights change, that
after an actor update the encoder has no gradient from the actor loss, that the critic's TD error falls and
that the mean action moves toward the rewarded one for each image class.
"""
import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic, PixelEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

ACT_DIM = 2
BEST_ACTION = torch.tensor([[0.8, -0.6], [-0.7, 0.5], [0.2, 0.9]])


def render(cls):
    n = cls.shape[0]
    img = 0.05 * torch.randn(n, 3, 11, 11)
    img[torch.arange(n), cls] += 1.0
    return img


def batch(n=128):
    cls = torch.randint(0, 3, (n,))
    act = torch.rand(n, ACT_DIM) * 2 - 1
    rew = -((act - BEST_ACTION[cls]) ** 2).sum(-1, keepdim=True)
    return render(cls), act, rew, render(torch.randint(0, 3, (n,))), cls


def main():
    encoder = PixelEncoder()
    critic = Critic(encoder, ACT_DIM)
    actor = Actor(encoder, ACT_DIM)
    critic_target = copy.deepcopy(critic)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    actor_opt = torch.optim.Adam(actor.trunk.parameters(), lr=1e-3)
    alpha, gamma, tau = 0.02, 0.5, 0.05

    enc0 = [p.detach().clone() for p in encoder.parameters()]
    probe_cls = torch.arange(3).repeat(100)
    probe_obs = render(probe_cls)
    with torch.no_grad():
        gap0 = ((actor(probe_obs)[2] - BEST_ACTION[probe_cls]) ** 2).sum(-1).mean().item()

    td_hist = []
    for it in range(1500):
        obs, act, rew, next_obs, _ = batch()
        with torch.no_grad():
            next_act, next_logp, _ = actor(next_obs)
            tq1, tq2 = critic_target(next_obs, next_act)
            y = rew + gamma * (torch.min(tq1, tq2) - alpha * next_logp[:, None])
        q1, q2 = critic(obs, act)
        critic_loss = F.mse_loss(q1, y) + F.mse_loss(q2, y)
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        td_hist.append(critic_loss.item())

        if it % 2 == 0:
            pi, logp, _ = actor(obs, detach_encoder=True)
            aq1, aq2 = critic(obs, pi, detach_encoder=True)
            actor_loss = (alpha * logp[:, None] - torch.min(aq1, aq2)).mean()
            critic_opt.zero_grad()
            actor_opt.zero_grad()
            actor_loss.backward()
            actor_opt.step()
            assert all(p.grad is None for p in encoder.parameters())

        with torch.no_grad():
            for p, tp in zip(critic.parameters(), critic_target.parameters()):
                tp.lerp_(p, tau)

    with torch.no_grad():
        gap1 = ((actor(probe_obs)[2] - BEST_ACTION[probe_cls]) ** 2).sum(-1).mean().item()
    assert not any(torch.equal(a, b) for a, b in zip(enc0, encoder.parameters()))
    early, late = sum(td_hist[:50]) / 50, sum(td_hist[-50:]) / 50
    assert late < 0.5 * early, (early, late)
    assert gap1 < 0.5 * gap0, (gap0, gap1)
    print(f"critic loss {early:.3f} -> {late:.3f}; action gap {gap0:.3f} -> {gap1:.3f}")


if __name__ == "__main__":
    main()
