"""
expect: GL005 48
dynamic: confirm
source: none, invented

A WGAN with weight clipping on a 1-D mixture of Gaussians.  In `WGANTrainer.critic_update` the
Lipschitz clipping loop `p.data.clamp_(-c, c)` was placed after the critic loss is computed but before
`backward()`.  The critic's linear layers saved their weights for the backward pass (to propagate
gradient to their inputs), and editing them through `.data` bypasses the version counter, so there is
no error: the backward just uses the clipped weights for the input-gradients while the loss value
came from the unclipped ones, and the first layer's gradient is silently wrong.  The asserts compare
the critic gradients with an untouched copy of the same critic: the pre-backward clipping gives a
different first-layer gradient, clipping after `optimizer.step()` gives identical gradients, keeps
every weight inside [-c, c], and training moves the Wasserstein estimate.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def real_samples(n):
    comp = torch.randint(0, 2, (n, 1)).float()
    return comp * (2.0 + 0.3 * torch.randn(n, 1)) + (1 - comp) * (-1.0 + 0.5 * torch.randn(n, 1))


class WGANTrainer:
    def __init__(self, clip=0.05, clip_stage="loss"):
        self.gen = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
        self.critic = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
        self.opt_g = torch.optim.RMSprop(self.gen.parameters(), lr=5e-4)
        self.opt_c = torch.optim.RMSprop(self.critic.parameters(), lr=5e-4)
        self.clip = clip
        self.clip_stage = clip_stage

    def critic_loss(self, critic, real, fake):
        return critic(fake).mean() - critic(real).mean()

    def critic_update(self, real):
        fake = self.gen(torch.randn(real.shape[0], 4)).detach()
        loss = self.critic_loss(self.critic, real, fake)
        self.opt_c.zero_grad()
        if self.clip_stage == "loss":
            for p in self.critic.parameters():
                p.data.clamp_(-self.clip, self.clip)
        loss.backward()
        grads = [p.grad.clone() for p in self.critic.parameters()]
        self.opt_c.step()
        if self.clip_stage == "step":
            for p in self.critic.parameters():
                p.data.clamp_(-self.clip, self.clip)
        return loss.item(), grads, fake

    def generator_update(self, n):
        loss = -self.critic(self.gen(torch.randn(n, 4))).mean()
        self.opt_g.zero_grad()
        loss.backward()
        self.opt_g.step()


def check_first_step(clip_stage):
    torch.manual_seed(0)
    trainer = WGANTrainer(clip_stage=clip_stage)
    untouched = copy.deepcopy(trainer.critic)
    real = real_samples(128)
    torch.manual_seed(1)
    _, grads, fake = trainer.critic_update(real)
    trainer.critic_loss(untouched, real, fake).backward()
    ref = [p.grad for p in untouched.parameters()]
    return all(torch.allclose(g, r, atol=1e-6) for g, r in zip(grads, ref))


if __name__ == "__main__":
    assert not check_first_step(clip_stage="loss")
    assert check_first_step(clip_stage="step")

    torch.manual_seed(0)
    trainer = WGANTrainer(clip_stage="step")
    estimates = []
    for it in range(300):
        for _ in range(5):
            w_loss, _, _ = trainer.critic_update(real_samples(128))
        trainer.generator_update(128)
        estimates.append(-w_loss)
    assert all(p.abs().max() <= trainer.clip + 1e-7 for p in trainer.critic.parameters())
    assert abs(estimates[-1] - estimates[0]) > 1e-3
    print(f"k19: clipping before backward changes critic gradients; clipping after step: W-estimate {estimates[0]:.4f} -> {estimates[-1]:.4f}")
