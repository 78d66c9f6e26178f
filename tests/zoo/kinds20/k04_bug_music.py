"""
expect: GL005 37
dynamic: confirm
source: kinds check 20, kind 4 (written for this check)

A neural audio codec's quantiser keeps a trainable `nn.Parameter` codebook in the
optimiser and computes distances with it attached (`codes.pow(2)` saves the
codebook); the codebook loss reads the chosen distance. An EMA edit through
`.data` then runs before that loss's backward, so the gradient is silently
computed with the edited codebook; the assert shows it differs from the true one.
"""
import torch
import torch.nn as nn

torch.manual_seed(6)


class CodecQuantizer(nn.Module):
    def __init__(self, n_codes=16, dim=8, decay=0.9):
        super().__init__()
        self.codes = nn.Parameter(torch.randn(n_codes, dim))
        self.decay = decay

    def forward(self, z):
        zd = z.detach()
        dist = (zd.pow(2).sum(1, keepdim=True) - 2 * zd @ self.codes.t()
                + self.codes.pow(2).sum(1))
        idx = dist.argmin(1)
        codebook_loss = dist.gather(1, idx[:, None]).mean()
        z_q = z + (self.codes[idx] - z).detach()
        return z_q, idx, codebook_loss

    def ema_update(self, z, idx):
        onehot = nn.functional.one_hot(idx, self.codes.shape[0]).float()
        counts = onehot.sum(0).clamp(min=1)[:, None]
        means = onehot.t() @ z.detach() / counts
        self.codes.data.mul_(self.decay).add_((1 - self.decay) * means)


vq = CodecQuantizer()
opt = torch.optim.SGD(vq.parameters(), lr=0.1)
frames = torch.randn(40, 8)
old_codes = vq.codes.detach().clone()

z_q, idx, cb_loss = vq(frames)
vq.ema_update(frames, idx)
opt.zero_grad()
cb_loss.backward()

ref_codes = old_codes.clone().requires_grad_()
ref_loss = (frames - ref_codes[idx]).pow(2).sum(1).mean()
(ref_grad,) = torch.autograd.grad(ref_loss, ref_codes)
assert not torch.allclose(vq.codes.grad, ref_grad, atol=1e-4)
print("ok: the .data edit silently changed the codebook gradient")
