"""
expect: GL001 reid.py:17
dynamic: confirm
source: https://github.com/NVlabs/DG-Net/issues/49

A user of a joint generative/re-id model noticed that the id encoder detaches its embedding
inside forward(), yet the trainer's generator update adds an "id embedding reconstruction"
loss that compares the id encoder's embedding of a generated image with that of the real
one. Both sides come out of the detached forward, so that term is a constant: it adds to the
logged loss but sends no gradient to the decoder (the thing it was supposed to constrain).
The asserts show the decoder's gradient is identical whether the term's weight is 0 or 5,
while a variant that keeps the generated side attached does move the decoder.
"""
import torch

from reid import Decoder, IdEncoder, recon_criterion

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, recon_f_w):
        torch.manual_seed(1)
        self.id_enc = IdEncoder()
        self.dec = Decoder()
        self.recon_f_w = recon_f_w

    def gen_loss(self, x_a, s_b, detach_fix=False):
        f_a, _ = self.id_enc(x_a)
        x_ab = self.dec(f_a, s_b)                 # swap structure, keep identity
        if detach_fix:
            f_ab = self.id_enc.body(x_ab)         # attached path through the generator
        else:
            f_ab, _ = self.id_enc(x_ab)
        loss_img = recon_criterion(x_ab, x_a)
        loss_f = recon_criterion(f_ab, f_a)
        return loss_img + self.recon_f_w * loss_f, loss_f

    def decoder_grad(self, x_a, s_b, **kw):
        loss, loss_f = self.gen_loss(x_a, s_b, **kw)
        grads = torch.autograd.grad(loss, list(self.dec.parameters()))
        return torch.cat([g.flatten() for g in grads]), loss_f


x_a = torch.randn(8, 24)
s_b = torch.randn(8, 8)

g0, _ = Trainer(0.0).decoder_grad(x_a, s_b)
g5, lf = Trainer(5.0).decoder_grad(x_a, s_b)
assert lf.item() > 0 and not lf.requires_grad
assert torch.allclose(g0, g5)                      # the weighted term changes nothing

h0, _ = Trainer(0.0).decoder_grad(x_a, s_b, detach_fix=True)
h5, _ = Trainer(5.0).decoder_grad(x_a, s_b, detach_fix=True)
assert not torch.allclose(h0, h5)                  # attached term does reach the decoder
print("ok", lf.item(), (h5 - h0).abs().max().item())
