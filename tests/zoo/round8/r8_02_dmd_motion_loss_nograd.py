"""
expect: GL001 36
dynamic: confirm
source: https://github.com/Sphere-AI-Lab/diagdistill/issues/2

Distribution-matching distillation (DMD) for a few-frame generator. As DMD
intends, the KL "gradient" is computed inside a torch.no_grad() region from two
score networks, and the spatial term regresses the generator output onto a
detached target, so the generator still gets a gradient from it. The added
motion term, however, is built only from `grad_motion`, which was produced in
the same no_grad region (and weighted by detached weights): it is a constant
that adds a number to the loss and no gradient at all. Asserted: generator
gradients with and without the motion term are identical, while the motion
loss value itself is non-zero.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, T, D = 2, 4, 6


class DMDLoss:
    def __init__(self, real_score, fake_score):
        self.real_score, self.fake_score = real_score, fake_score

    def kl_grad(self, noisy, clean):
        pf, pr = self.fake_score(noisy), self.real_score(noisy)
        grad = pf - pr
        grad_motion = (pf[:, 1:] - pf[:, :-1]) - (pr[:, 1:] - pr[:, :-1])
        norm = (clean - pr).abs().mean(dim=[1, 2], keepdim=True)
        return grad / norm, grad_motion / norm

    def __call__(self, frames, use_motion=True):
        with torch.no_grad():
            noisy = frames + 0.3 * torch.randn_like(frames)
            grad, grad_motion = self.kl_grad(noisy, frames)
        target = (frames - grad).detach()
        spatial = 0.5 * F.mse_loss(frames, target)
        per_frame = grad_motion.pow(2).mean(dim=2)
        weights = (1.0 + per_frame.cumsum(1) / per_frame.sum(1, keepdim=True)).detach()
        motion = (per_frame * weights).mean()
        total = spatial + 0.2 * motion if use_motion else spatial
        return total, motion


generator = nn.Linear(D, T * D)
real_score = nn.Linear(D, D).requires_grad_(False)
fake_score = nn.Linear(D, D)  # trained separately by the critic optimizer
gen_opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(fake_score.parameters(), lr=1e-3)
dmd = DMDLoss(real_score, fake_score)
z = torch.randn(B, D)


def generator_grads(use_motion):
    gen_opt.zero_grad()
    torch.manual_seed(1)
    frames = generator(z).view(B, T, D)
    loss, motion = dmd(frames, use_motion)
    loss.backward()
    return [p.grad.clone() for p in generator.parameters()], motion


with_motion, motion_value = generator_grads(True)
without_motion, _ = generator_grads(False)
assert motion_value.item() > 0 and not motion_value.requires_grad
for a, b in zip(with_motion, without_motion):
    assert torch.equal(a, b), "the motion term changed the generator gradient"
print("OK: motion term adds %.4f to the loss but no gradient" % motion_value.item())
