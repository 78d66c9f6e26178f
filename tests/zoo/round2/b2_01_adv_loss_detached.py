"""expect: GL001 44
dynamic: confirm
source: https://github.com/guopengf/FL-MRCM/issues/10

A federated MRI reconstruction trainer adds an adversarial term (a domain
discriminator applied to the generator's latent code) to the reconstruction
loss. While fixing a GPU memory leak the author put `.detach()` on the
adversarial loss itself rather than on the copy kept for logging, so the term
sends no gradient to the generator. The maintainer confirmed and moved the
detach into the `append()` call.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Reconstructor(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 4)
        self.dec = nn.Linear(4, 8)

    def forward(self, x):
        z = torch.tanh(self.enc(x))
        return self.dec(z), z


class LocalUpdate:
    def __init__(self, net, disc, weight=0.5):
        self.net = net
        self.disc = disc
        self.weight = weight
        self.adv_log = []

    def adversarial_term(self, z):
        logits = self.disc(z)
        return F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))

    def generator_loss(self, x, use_adv=True):
        recon, z = self.net(x)
        loss_rec = F.l1_loss(recon, x)
        if not use_adv:
            return loss_rec
        loss_adv_g = self.adversarial_term(z).detach()
        self.adv_log.append(loss_adv_g)
        return loss_rec + self.weight * loss_adv_g


def enc_grad(update, x, use_adv):
    update.net.zero_grad()
    update.generator_loss(x, use_adv).backward()
    return update.net.enc.weight.grad.clone()


if __name__ == "__main__":
    torch.manual_seed(0)
    net, disc = Reconstructor(), nn.Linear(4, 1)
    upd = LocalUpdate(net, disc)
    x = torch.randn(16, 8)

    with_adv = enc_grad(upd, x, True)
    without_adv = enc_grad(upd, x, False)
    # the adversarial term contributes nothing to the generator's gradient
    assert torch.allclose(with_adv, without_adv)
    # although, undetached, it would contribute a non-zero gradient
    g = torch.autograd.grad(upd.adversarial_term(net(x)[1]), net.enc.weight)[0]
    assert g.abs().sum() > 0
    print("ok: adversarial term is dead for the generator")
