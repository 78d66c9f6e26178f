"""
expect: GL001 textenc.py:23, GL003 main.py:55
dynamic: confirm
source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/pull/2945

Textual-inversion / DreamArtist-style prompt tuning: the only trainable tensor is the
embedding vector of a placeholder token, spliced into a frozen CLIP-like text
encoder whose conditioning feeds a frozen denoiser. In the low-memory path the
conditioning is computed inside torch.no_grad() (textenc.py), so the loss has no
history and backward() raised "element 0 of tensors does not require grad". As a
commenter on the linked pull request did, the trainer sets loss.requires_grad = True
before backward; the error disappears and the run "trains", but the embedding never
receives a gradient and never moves. The asserts show the vector is unchanged, and
that computing the conditioning with autograd on makes it learn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from textenc import TinyTextEncoder, get_conditioning

torch.manual_seed(0)
torch.set_num_threads(1)

PLACEHOLDER = 7


class FrozenDenoiser(nn.Module):
    def __init__(self, img=12, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(img + dim, 32), nn.SiLU(), nn.Linear(32, img))
        self.requires_grad_(False)

    def forward(self, noisy, cond):
        return self.net(torch.cat([noisy, cond], dim=-1))


def setup():
    torch.manual_seed(1)
    encoder, denoiser = TinyTextEncoder(), FrozenDenoiser()
    learned = nn.Parameter(torch.randn(16) * 0.1)
    opt = torch.optim.AdamW([learned], lr=5e-2)
    tokens = torch.tensor([[1, PLACEHOLDER, 3, 4]] * 8)
    return encoder, denoiser, learned, opt, tokens


def train_flagged(steps=20):
    encoder, denoiser, learned, opt, tokens = setup()
    start = learned.detach().clone()
    for _ in range(steps):
        images, noise = torch.randn(8, 12), torch.randn(8, 12)
        cond = get_conditioning(encoder, tokens, PLACEHOLDER, learned, medvram=True)
        loss = F.mse_loss(denoiser(images + noise, cond), noise)
        opt.zero_grad()
        loss.requires_grad = True
        loss.backward()
        opt.step()
    return learned, start


def train_intended(steps=20):
    encoder, denoiser, learned, opt, tokens = setup()
    start = learned.detach().clone()
    for _ in range(steps):
        images, noise = torch.randn(8, 12), torch.randn(8, 12)
        cond = get_conditioning(encoder, tokens, PLACEHOLDER, learned, medvram=False)
        loss = F.mse_loss(denoiser(images + noise, cond), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return learned, start


learned, start = train_flagged()
assert learned.grad is None or learned.grad.abs().sum() == 0
assert torch.equal(learned.detach(), start), "the placeholder embedding should not move"

learned, start = train_intended()
assert learned.grad is not None and learned.grad.abs().sum() > 0
assert not torch.equal(learned.detach(), start)
print("flagged loss leaves the embedding untouched; conditioning with autograd trains it")
