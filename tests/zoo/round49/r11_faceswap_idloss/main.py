"""
expect: GL001 losses.py:26
dynamic: confirm
source: https://github.com/taotaonice/FaceShifter/issues/13

A small face-swap trainer in the AEI-Net style: a frozen face recognizer embeds the source face (under no_grad,
which is fine, it is a fixed target) and also embeds the swapped output Y so that an identity loss pulls Y toward
the source identity. In the linked issue a user tried detaching the aligned Y before the second recognizer call
(and wrapping it in no_grad) and reported that the identity loss then never converged and the swap failed. The
reason is autograd: the recognizer is frozen, so once its input is detached the identity term has no grad_fn at
all and contributes nothing to the generator; the total loss still backpropagates through the attribute and
reconstruction terms, so nothing errors. The asserts show that the identity term does not require grad, that the
generator's gradient is identical with and without it, and that the attached version does send a gradient.
"""
import torch
import torch.nn as nn

import torch.nn.functional as F

from losses import IdentityLoss, align_crop, attribute_loss, reconstruction_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class Recognizer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
                                 nn.Linear(32, dim))

    def forward(self, x):
        return self.net(x)


class SwapGenerator(nn.Module):
    """Encodes target attributes and injects the source identity embedding."""

    def __init__(self, dim=16):
        super().__init__()
        self.enc1 = nn.Conv2d(3, 8, 3, padding=1)
        self.enc2 = nn.Conv2d(8, 8, 3, padding=1)
        self.id_mod = nn.Linear(dim, 8)
        self.dec = nn.Conv2d(8, 3, 3, padding=1)

    def get_attr(self, x):
        a1 = torch.relu(self.enc1(x))
        a2 = torch.relu(self.enc2(a1))
        return [a1, a2]

    def forward(self, x_target, id_embed):
        attrs = self.get_attr(x_target)
        h = attrs[-1] * (1 + self.id_mod(id_embed)[:, :, None, None])
        return torch.tanh(self.dec(h)), attrs


def generator_grads(gen, loss):
    gen.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in gen.parameters()]


recognizer = Recognizer().eval()
recognizer.requires_grad_(False)
gen = SwapGenerator()
id_loss = IdentityLoss(recognizer)

xs = torch.randn(4, 3, 16, 16)
xt = torch.randn(4, 3, 16, 16)
same_person = torch.tensor([1.0, 0.0, 0.0, 1.0])

src_embed = id_loss.source_embedding(xs)
y, xt_attr = gen(xt, src_embed)
l_id = id_loss(src_embed, y)
l_attr = attribute_loss(xt_attr, gen.get_attr(y))
l_rec = reconstruction_loss(y, xt, same_person)

# the identity term is cut from the generator: it is a constant
assert not l_id.requires_grad and l_id.grad_fn is None
g_with_id = generator_grads(gen, 10 * l_attr + 5 * l_id + 10 * l_rec)

y2, xt_attr2 = gen(xt, src_embed)
g_without_id = generator_grads(gen, 10 * attribute_loss(xt_attr2, gen.get_attr(y2))
                               + 10 * reconstruction_loss(y2, xt, same_person))
assert all(torch.allclose(a, b) for a, b in zip(g_with_id, g_without_id))

# intended: run the frozen recognizer on the attached swapped face
y3, _ = gen(xt, src_embed)
l_id_ok = (1.0 - F.cosine_similarity(src_embed, recognizer(align_crop(y3)), dim=1)).mean()
assert l_id_ok.requires_grad
gen.zero_grad()
l_id_ok.backward()
assert gen.dec.weight.grad.abs().sum() > 0 and gen.id_mod.weight.grad.abs().sum() > 0
assert all(p.grad is None for p in recognizer.parameters())
print("identity loss (cut):", round(l_id.item(), 4), "| attached identity loss sends grad to generator: ok")
