"""
expect: GL001 codec.py:20, GL003 main.py:44
dynamic: confirm
source: https://stackoverflow.com/questions/74816476/pytorch-how-to-train-model-with-loss-that-dont-return-gradient

Stack Overflow question on speech enhancement in a codec's latent space: noisy audio is encoded,
a transformer cleans the latents, a pretrained decoder turns them back into audio and an L1 loss
compares waveforms. The decoder is run under torch.no_grad() to save memory, so backward raised
"does not require grad"; the poster then marked the decoded audio as requiring grad and the
model "does not progress". Here the codec lives in codec.py, the enhancer trainer in main.py.
The asserts show the enhancer gets no gradient and its weights never move, while the variant
that decodes with autograd enabled (decoder still frozen) trains the enhancer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from codec import FrozenCodec

torch.manual_seed(0)
torch.set_num_threads(1)


class LatentEnhancer(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, 32), nn.GELU(), nn.Linear(32, latent))

    def forward(self, z):                       # z: B x C x T
        return z + self.net(z.transpose(1, 2)).transpose(1, 2)


codec = FrozenCodec()
clean = torch.sin(torch.linspace(0, 40, 512)).view(1, 1, -1).repeat(4, 1, 1)
noisy = clean + 0.3 * torch.randn_like(clean)


def train(enhancer, decode, steps=5):
    opt = torch.optim.Adam(enhancer.parameters(), lr=1e-2)
    w0 = enhancer.net[0].weight.detach().clone()
    for _ in range(steps):
        z = enhancer(codec.encode(noisy))
        denoised = decode(z)
        if not denoised.requires_grad:
            denoised.requires_grad_(True)     # "fix" for: element 0 does not require grad
        loss = F.l1_loss(denoised, clean)
        opt.zero_grad()
        loss.backward()
        grad = enhancer.net[0].weight.grad
        opt.step()
    return w0, enhancer.net[0].weight.detach(), grad


torch.manual_seed(1)
w0, w1, grad = train(LatentEnhancer(), codec.decode)
assert grad is None
assert torch.equal(w0, w1)


def decode_with_grad(z):
    return torch.tanh(codec.dec(z))           # frozen weights, but the path to z is kept


torch.manual_seed(1)
w0, w1, grad = train(LatentEnhancer(), decode_with_grad)
assert grad is not None and grad.abs().sum() > 0
assert not torch.equal(w0, w1)
print("ok")
