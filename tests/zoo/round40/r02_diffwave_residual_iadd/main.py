"""expect: GL005 wavenet.py:27
dynamic: confirm
source: https://github.com/philsyn/DiffWave-Vocoder/issues/2

A small DiffWave-style vocoder: a WaveNet denoiser (wavenet.py) predicts the noise added to a waveform at a random
diffusion step, conditioned on a mel spectrogram, and the trainer here minimises the epsilon MSE. Each residual block
starts with `h = x; h += step_embedding`, which is an in-place add on the block input itself. For the first block
that input is the output of `init_conv`'s ReLU, and ReLU keeps its output for backward, so the in-place add bumps the
version of a saved tensor and loss.backward() raises "modified by an inplace operation", the error the linked issue
reports at loss.backward() on a recent PyTorch. For later blocks the same line silently rewrites x as well, so the
step embedding also leaks into the residual path. The asserts catch the RuntimeError for the original block and show
that the out-of-place version (`h = x + ...`) trains: the weights get finite gradients and the loss drops.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from wavenet import ResidualBlock, WaveNetDenoiser

torch.manual_seed(0)
torch.set_num_threads(1)

T = 50
betas = torch.linspace(1e-4, 0.05, T)
alpha_bar = torch.cumprod(1.0 - betas, dim=0)


def training_loss(net, mel, audio):
    b = audio.shape[0]
    steps = torch.randint(T, (b,))
    z = torch.randn_like(audio)
    ab = alpha_bar[steps].view(b, 1, 1)
    noisy = ab.sqrt() * audio + (1 - ab).sqrt() * z
    return F.mse_loss(net(noisy, mel, steps), z)


class OutOfPlaceBlock(ResidualBlock):
    def forward(self, x, mel, t_emb):
        h = x + self.fc_t(t_emb).unsqueeze(-1)
        h = self.dilated(h) + self.mel_conv(mel)
        gated = torch.tanh(h[:, : self.channels]) * torch.sigmoid(h[:, self.channels :])
        return (x + self.res_conv(gated)) * math.sqrt(0.5), self.skip_conv(gated)


mel = torch.randn(4, 8, 64)
audio = torch.tanh(torch.randn(4, 1, 64))

# the block as written: backward fails on the ReLU output that the block edited in place
net = WaveNetDenoiser()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
opt.zero_grad()
loss = training_loss(net, mel, audio)
try:
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

# same model with the out-of-place add trains
torch.manual_seed(0)
good = WaveNetDenoiser(block=OutOfPlaceBlock)
opt = torch.optim.Adam(good.parameters(), lr=3e-3)
torch.manual_seed(1)
fixed_steps = torch.randint(T, (4,))
fixed_noise = torch.randn_like(audio)
ab = alpha_bar[fixed_steps].view(4, 1, 1)
noisy = ab.sqrt() * audio + (1 - ab).sqrt() * fixed_noise
first = None
for it in range(60):
    opt.zero_grad()
    l = F.mse_loss(good(noisy, mel, fixed_steps), fixed_noise)
    l.backward()
    if it == 0:
        first = l.item()
        # (the last block's residual conv feeds nothing, as in DiffWave; every other weight gets a gradient)
        unused = {id(p) for p in good.blocks[-1].res_conv.parameters()}
        assert all(p.grad is not None and torch.isfinite(p.grad).all()
                   for p in good.parameters() if id(p) not in unused)
    opt.step()
assert l.item() < 0.8 * first, (first, l.item())
print("buggy block: backward raised; out-of-place block loss %.3f -> %.3f" % (first, l.item()))
