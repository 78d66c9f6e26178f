"""
expect: GL001 66
dynamic: confirm
source: https://github.com/X-GenGroup/Flow-Factory/issues/122

GRPO fine-tuning of a flow-matching (velocity-prediction) model, reduced to a toy. For each
sampled step the trainer runs the policy with gradients, forms the clipped ratio loss, and then,
to regularise towards the frozen reference model, opens one torch.no_grad() block that runs the
reference AND computes kl_div = mean((policy_pred - ref_pred) ** 2) inside it. Because the
subtraction is recorded under no_grad, kl_div is a constant: the penalty shows up in the logged
loss but adds no gradient, so the policy is never pulled back to the reference (the maintainer
moved only the reference forward under no_grad as the fix). The asserts show that with zero
advantages every policy gradient is exactly zero and the weights do not move, while the repaired
step (kl computed outside the block) gives a non-zero gradient and shrinks the velocity gap.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class VelocityNet(nn.Module):
    def __init__(self, dim=6, hid=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hid), nn.SiLU(), nn.Linear(hid, dim))

    def forward(self, x_t, t):
        return self.net(torch.cat([x_t, t[:, None]], dim=1))


def gaussian_logprob(next_latents, mean, std):
    return -((next_latents - mean) ** 2).sum(dim=1) / (2 * std ** 2)


ref_model = VelocityNet()
for p in ref_model.parameters():
    p.requires_grad_(False)
policy = copy.deepcopy(ref_model)
for p in policy.parameters():
    p.requires_grad_(True)
with torch.no_grad():
    for p in policy.parameters():
        p.add_(0.2 * torch.randn_like(p))

B, DIM, DT, STD = 16, 6, 0.1, 0.05
x_t = torch.randn(B, DIM)
t = torch.rand(B)
with torch.no_grad():
    old_mean = x_t + DT * policy(x_t, t)
    next_latents = old_mean + STD * torch.randn(B, DIM)
    old_log_prob = gaussian_logprob(next_latents, old_mean, STD)


def grpo_step_loss(advantage, kl_beta=0.5, clip=0.2):
    noise_pred = policy(x_t, t)
    log_prob = gaussian_logprob(next_latents, x_t + DT * noise_pred, STD)
    ratio = torch.exp(log_prob - old_log_prob)
    unclipped = -advantage * ratio
    clipped = -advantage * torch.clamp(ratio, 1.0 - clip, 1.0 + clip)
    loss = torch.mean(torch.maximum(unclipped, clipped))
    with torch.no_grad():
        ref_pred = ref_model(x_t, t)
        kl_div = ((noise_pred - ref_pred) ** 2).mean(dim=1)
    kl_div = torch.mean(kl_div)
    return loss + kl_beta * kl_div, kl_div


def grpo_step_loss_fixed(advantage, kl_beta=0.5, clip=0.2):
    noise_pred = policy(x_t, t)
    log_prob = gaussian_logprob(next_latents, x_t + DT * noise_pred, STD)
    ratio = torch.exp(log_prob - old_log_prob)
    unclipped = -advantage * ratio
    clipped = -advantage * torch.clamp(ratio, 1.0 - clip, 1.0 + clip)
    loss = torch.mean(torch.maximum(unclipped, clipped))
    with torch.no_grad():
        ref_pred = ref_model(x_t, t)
    kl_div = ((noise_pred - ref_pred) ** 2).mean(dim=1).mean()
    return loss + kl_beta * kl_div, kl_div


zero_adv = torch.zeros(B)  # all samples of the group got the same reward
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
before = [p.detach().clone() for p in policy.parameters()]
for _ in range(10):
    opt.zero_grad()
    loss, kl = grpo_step_loss(zero_adv)
    loss.backward()
    assert all(p.grad.abs().max() == 0 for p in policy.parameters())
    opt.step()
assert kl.item() > 0.01 and not kl.requires_grad
assert all(torch.equal(a, p) for a, p in zip(before, policy.parameters()))

kl_start = grpo_step_loss_fixed(zero_adv)[1].item()
for _ in range(60):
    opt.zero_grad()
    loss, kl = grpo_step_loss_fixed(zero_adv)
    loss.backward()
    opt.step()
assert kl.item() < 0.2 * kl_start
print(f"KL penalty inert inside no_grad; moved outside it shrinks the gap {kl_start:.3f} -> {kl.item():.4f}")
