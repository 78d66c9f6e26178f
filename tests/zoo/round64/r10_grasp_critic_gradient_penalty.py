"""
expect: none
dynamic: dismiss
source: https://github.com/taqiaden/GraspAgent/blob/c2b34b4a49389f148edbbb075d5681ebe051b773/lib/loss/gradient_penalty.py#L4-L29

GraspAgent trains a grasp-pose generator against a critic over per-point
7-D gripper poses, with a WGAN gradient penalty.  The penalty code looks like
several classic mistakes at once: the interpolated poses are built from real
and generated ones, then `.detach().clone()` and `requires_grad = True`; the
dense pose map is a detached clone of the generator output that is edited in
place (`dense[ii, :, j] = interpolated[ii]`); and the gradient is taken with
autograd.grad(..., create_graph=True, retain_graph=True).  All of it is
correct: the penalty must treat the interpolates as fresh inputs, the in-place
write into the fresh clone is recorded and routes the critic's gradient back to
the interpolates, and create_graph lets the penalty train the critic.  The
program builds a tiny point-feature critic and generator on random scenes; the
asserts check the input gradient is non-zero, the penalty alone gives the
critic non-zero gradients and gives the generator none, and critic training
with the penalty changes the critic.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

B, P, F_PC = 3, 10, 6


class GraspCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(F_PC + 7, 16, 1), nn.LeakyReLU(0.2), nn.Conv1d(16, 1, 1))

    def forward(self, pc, dense_pose):                 # (B, F_PC, P), (B, 7, P)
        return self.net(torch.cat([pc, dense_pose], dim=1))   # (B, 1, P)


class GraspGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv1d(F_PC, 7, 1)

    def forward(self, pc):
        return torch.tanh(self.net(pc))                # (B, 7, P)


def gradient_penalty(pc, critic, generated_pose_7, index, real, fake):
    batch_size, p = real.shape
    epsilon = torch.rand((batch_size, 1)).repeat(1, p)
    interpolated_poses = real * epsilon + fake * (1 - epsilon)
    interpolated_poses = interpolated_poses.detach().clone()
    interpolated_poses.requires_grad = True
    dense_pose_7 = generated_pose_7.detach().clone()
    for ii, j in enumerate(index):
        dense_pose_7[ii, :, j] = interpolated_poses[ii]
    critic_scores = critic(pc, dense_pose_7)
    mixed_score = torch.stack([critic_scores[i, :, j] for i, j in enumerate(index)])
    gradient = torch.autograd.grad(inputs=interpolated_poses, outputs=mixed_score,
                                   grad_outputs=torch.ones_like(mixed_score),
                                   create_graph=True, retain_graph=True)[0]
    gradient_norm = gradient.view(gradient.shape[0], -1).norm(2, dim=1)
    return torch.mean((gradient_norm - 1) ** 2), gradient


critic, gen = GraspCritic(), GraspGenerator()
pc = torch.randn(B, F_PC, P)
index = [2, 5, 7]
real = torch.rand(B, 7) * 2 - 1
generated = gen(pc)
fake = torch.stack([generated[i, :, j] for i, j in enumerate(index)])

gp, input_grad = gradient_penalty(pc, critic, generated, index, real, fake)
assert input_grad.abs().sum() > 0
g_critic = torch.autograd.grad(gp, list(critic.parameters()), retain_graph=True, allow_unused=True)
assert sum(g.abs().sum().item() for g in g_critic if g is not None) > 0
g_gen = torch.autograd.grad(gp, list(gen.parameters()), allow_unused=True)
assert all(g is None for g in g_gen)

opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3)
before = [p.detach().clone() for p in critic.parameters()]
for _ in range(3):
    generated = gen(pc).detach()
    fake = torch.stack([generated[i, :, j] for i, j in enumerate(index)])
    dense_real = generated.clone()
    for ii, j in enumerate(index):
        dense_real[ii, :, j] = real[ii]
    score_fake = torch.stack([critic(pc, generated)[i, :, j] for i, j in enumerate(index)])
    score_real = torch.stack([critic(pc, dense_real)[i, :, j] for i, j in enumerate(index)])
    gp, _ = gradient_penalty(pc, critic, generated, index, real, fake)
    loss_c = score_fake.mean() - score_real.mean() + 10.0 * gp
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
assert any(not torch.equal(b, p) for b, p in zip(before, critic.parameters()))
