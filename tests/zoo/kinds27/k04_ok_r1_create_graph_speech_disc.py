"""
expect: none
dynamic: dismiss
source: kinds check 27, kind 2

The R1 penalty for a mel-spectrogram discriminator, done properly: the input
gradient is taken with create_graph=True, so the penalty already requires
grad and backward reaches every discriminator weight without any switch.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MelDiscriminator(nn.Module):
    def __init__(self, n_mels=20, channels=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(n_mels, channels, 5, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(channels, channels, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(channels, 1, 3, padding=1),
        )

    def forward(self, mel):
        return self.body(mel).mean(dim=(1, 2))


def r1_penalty(disc, real_mel):
    real_mel = real_mel.detach().requires_grad_(True)
    logits = disc(real_mel)
    grad_real = torch.autograd.grad(logits.sum(), real_mel, create_graph=True)[0]
    return grad_real.pow(2).flatten(1).sum(1).mean()


disc = MelDiscriminator()
real_mel = torch.randn(8, 20, 40)

disc.zero_grad()
penalty = r1_penalty(disc, real_mel)
assert penalty.requires_grad
(5.0 * penalty).backward()

weight_grads = [p.grad for p in disc.parameters() if p.dim() > 1]
assert all(g is not None for g in weight_grads)
assert sum(g.abs().sum().item() for g in weight_grads) > 0.0
print("R1 =", penalty.item(), "-> discriminator weights receive gradient")
