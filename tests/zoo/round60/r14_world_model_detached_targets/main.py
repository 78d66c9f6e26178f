"""
expect: GL001 world_model.py:23
dynamic: confirm
source: https://github.com/mauicv/world-model-rl/commit/8eae1b1b25d3e14052d8fa225912c38f398b5a93

In this world-model RL repository the transformer world model encodes a rollout
of observations to latents, feeds the first T latents to the dynamics model and
uses the last T latents as targets. A commit made observe_rollout return
targets.detach() so that the dynamics loss would not push the encoder; but the
same targets are also decoded for the reconstruction loss, and the inputs to the
dynamics model are detached too, so after that change no loss reaches the
encoder at all. The follow-up commit "undetach targets for ae recon loss"
returned the targets with their graph and detached them only inside the
dynamics/reward/done losses. The program trains a small latent model on a
simulated damped pendulum: with the early detach the encoder's gradient is None
and its weights never change, so only the decoder adapts to a frozen random
encoding; with the detach moved into the dynamics loss the encoder trains too
and the reconstruction error ends far lower.
"""
import torch

from world_model import WorldModel

torch.manual_seed(0)
torch.set_num_threads(1)

OBS_DIM, ACT_DIM, T = 6, 1, 8
projection = torch.randn(2, OBS_DIM)          # renders (angle, velocity) to an observation


def pendulum_batch(batch):
    theta = torch.rand(batch) * 2 - 1
    omega = torch.zeros(batch)
    states, actions = [], []
    for _ in range(T + 1):
        states.append(torch.stack([theta, omega], dim=-1))
        torque = torch.rand(batch) * 0.4 - 0.2
        actions.append(torque)
        omega = 0.95 * omega - 0.3 * torch.sin(theta) + torque
        theta = theta + 0.2 * omega
    obs = torch.stack(states, dim=1) @ projection
    act = torch.stack(actions[:T], dim=1).unsqueeze(-1)
    return obs, act


def train(detach_all_targets, steps=150):
    torch.manual_seed(1)
    model = WorldModel(OBS_DIM, ACT_DIM, detach_all_targets=detach_all_targets)
    enc_before = model.encoder.weight.detach().clone()
    first_recon, last_recon, enc_grad = None, None, "unset"
    for step in range(steps):
        obs, act = pendulum_batch(32)
        targets, outputs = model.observe_rollout(obs, act)
        recon = model.update(targets, outputs, obs)
        if step == 0:
            first_recon = recon
            enc_grad = model.encoder.weight.grad
        last_recon = recon
    moved = (model.encoder.weight.detach() - enc_before).abs().max().item()
    return enc_grad, moved, first_recon, last_recon


g_bug, moved_bug, r0_bug, r1_bug = train(detach_all_targets=True)
g_fix, moved_fix, r0_fix, r1_fix = train(detach_all_targets=False)

assert g_bug is None, "encoder should receive no gradient when targets are detached early"
assert moved_bug == 0.0
assert g_fix is not None and g_fix.abs().sum() > 0 and moved_fix > 0
assert r1_fix < 0.5 * r1_bug, (r1_bug, r1_fix)
print(f"early detach : encoder moved {moved_bug:.1e}, recon {r0_bug:.3f} -> {r1_bug:.3f}")
print(f"late detach  : encoder moved {moved_fix:.1e}, recon {r0_fix:.3f} -> {r1_fix:.3f}")
