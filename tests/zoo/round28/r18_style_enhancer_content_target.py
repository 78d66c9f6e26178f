"""
expect: none
dynamic: dismiss
source: https://github.com/Flashkong/Source-Free-Object-Detection-by-Learning-to-Overlook-Domain-Style/issues/1

A source-free detection repo trains an AdaIN-style enhancer: encoder features
of the content image are re-styled into a target t, a decoder renders t, and a
content loss pulls the re-encoded rendering toward t. A user asks why t is
detached when the AdaIN reference code does not detach it. The author answers
that the encoder and decoder are trained by two separate optimizers, so the
detach only skips useless encoder gradients. Here EnhancerStep does the same;
the asserts show the decoder gets the identical gradient with or without the
detach and is updated, and the encoder's own optimizer still trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def adain(content, style, eps=1e-5):
    c_mean, c_std = content.mean((2, 3), keepdim=True), content.std((2, 3), keepdim=True) + eps
    s_mean, s_std = style.mean((2, 3), keepdim=True), style.std((2, 3), keepdim=True) + eps
    return (content - c_mean) / c_std * s_std + s_mean


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.c2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        f1 = self.c1(x)
        return [f1, self.c2(f1)]


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, 8, 3, padding=1),
                                 nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))

    def forward(self, f):
        return self.net(f)


class EnhancerStep:
    def __init__(self, encoder, decoder, detach_target=True):
        self.enc, self.dec = encoder, decoder
        self.detach_target = detach_target

    def content_loss(self, content, style):
        t = adain(self.enc(content)[-1], self.enc(style)[-1])
        if self.detach_target:
            t = t.detach()
        g_t = self.dec(t)
        return F.mse_loss(self.enc(g_t)[-1], t)


enc, dec = Encoder(), Decoder()
content, style = torch.randn(2, 3, 16, 16), torch.randn(2, 3, 16, 16) * 2 + 1

grads = {}
for flag in (True, False):
    enc.zero_grad()
    dec.zero_grad()
    EnhancerStep(enc, dec, detach_target=flag).content_loss(content, style).backward()
    grads[flag] = [p.grad.clone() for p in dec.parameters()]
assert all(torch.allclose(a, b) for a, b in zip(grads[True], grads[False]))
assert sum(g.abs().sum() for g in grads[True]) > 0

# Real loop: decoder optimizer on the content loss, encoder optimizer on a task loss.
opt_dec = torch.optim.Adam(dec.parameters(), lr=1e-2)
opt_enc = torch.optim.Adam(enc.parameters(), lr=1e-3)
head = nn.Conv2d(16, 1, 1)
step = EnhancerStep(enc, dec)
losses = []
for it in range(20):
    opt_dec.zero_grad()
    loss_c = step.content_loss(content, style)
    loss_c.backward()
    opt_dec.step()
    losses.append(loss_c.item())
    if it % 5 == 4:
        opt_enc.zero_grad()
        w_before = enc.c1[0].weight.detach().clone()
        head(enc(content)[-1]).pow(2).mean().backward()
        opt_enc.step()
        assert not torch.equal(enc.c1[0].weight, w_before)
first, loss_c = losses[0], torch.tensor(losses[-1])
assert losses[-1] < 0.7 * losses[0], losses
print("detached content target: decoder grads identical, content loss", first, "->", loss_c.item())
