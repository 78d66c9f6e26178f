"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 4 (written for this check)

VQGAN-style image tokenizer with an EMA codebook: the distance matrix d saves the
codebook buffer (through flat @ codebook.t()), the forward reads d only for argmin
indices, and then updates the codebook in place under no_grad. The soft assignment
softmax(-d) that would differentiate through d sits behind return_soft=False, and
no call passes it, so no backward ever checks the saved codebook. The asserts show
the generator and discriminator steps run, every encoder, decoder and discriminator
parameter gets a nonzero gradient, and the codebook moved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EMAQuantizer(nn.Module):
    def __init__(self, n_codes, dim, decay=0.9, tau=1.0):
        super().__init__()
        self.decay, self.tau = decay, tau
        self.register_buffer("codebook", torch.randn(n_codes, dim))

    def forward(self, z, return_soft=False):
        flat = z.reshape(-1, z.shape[-1])
        d = (flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.codebook.t()
             + self.codebook.pow(2).sum(1)[None, :])
        idx = d.argmin(1)
        q = self.codebook[idx].view_as(z)
        if self.training:
            with torch.no_grad():
                onehot = F.one_hot(idx, self.codebook.shape[0]).type_as(flat)
                counts = onehot.sum(0)[:, None]
                means = onehot.t() @ flat / counts.clamp(min=1)
                target = torch.where(counts > 0, means, self.codebook)
                self.codebook.mul_(self.decay).add_(target, alpha=1 - self.decay)
        z_q = z + (q - z).detach()
        commit = F.mse_loss(z, q)
        if return_soft:
            return z_q, commit, F.softmax(-d / self.tau, dim=1)
        return z_q, commit


class Tokenizer(nn.Module):
    def __init__(self, dim=8, n_codes=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, dim, 3, 1, 1))
        self.vq = EMAQuantizer(n_codes, dim)
        self.dec = nn.Sequential(nn.ConvTranspose2d(dim, 16, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(16, 3, 3, 1, 1))

    def forward(self, img):
        z = self.enc(img).permute(0, 2, 3, 1)
        z_q, commit = self.vq(z)
        return self.dec(z_q.permute(0, 3, 1, 2)), commit


def gan_step(tok, disc, opt_g, opt_d, img):
    opt_g.zero_grad()
    recon, commit = tok(img)
    g_loss = F.l1_loss(recon, img) + 0.25 * commit + 0.1 * F.softplus(-disc(recon)).mean()
    g_loss.backward()
    opt_g.step()
    opt_d.zero_grad()
    d_loss = F.softplus(-disc(img)).mean() + F.softplus(disc(recon.detach())).mean()
    d_loss.backward()
    opt_d.step()
    return g_loss.item(), d_loss.item()


if __name__ == "__main__":
    torch.manual_seed(9)
    img = torch.rand(4, 3, 16, 16) * 2 - 1
    tok = Tokenizer()
    disc = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4, 2, 1))
    opt_g = torch.optim.Adam(tok.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4)
    code0 = tok.vq.codebook.clone()
    for _ in range(3):
        gan_step(tok, disc, opt_g, opt_d, img)
    for net in (tok, disc):
        for name, p in net.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    assert not torch.equal(code0, tok.vq.codebook)
    print("ok: d is read only for argmin; the EMA update is never checked by backward")
