"""
expect: GL003 42
dynamic: confirm
source: kinds check 27, kind 2

An R1 penalty for a mel-spectrogram discriminator is backpropagated on its
own. The helper takes the input gradient without create_graph, so the penalty
is a plain number; flipping requires_grad on it silences the backward error
but the discriminator weights never receive any gradient from it.
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
    grad_real = torch.autograd.grad(logits.sum(), real_mel)[0]
    return grad_real.pow(2).flatten(1).sum(1).mean()


disc = MelDiscriminator()
real_mel = torch.randn(8, 20, 40)

disc.zero_grad()
penalty = r1_penalty(disc, real_mel)
penalty.requires_grad_(True)
(5.0 * penalty).backward()

assert penalty.item() > 0.0
assert all(p.grad is None for p in disc.parameters())
print("R1 =", penalty.item(), "-> no discriminator parameter got a gradient")
