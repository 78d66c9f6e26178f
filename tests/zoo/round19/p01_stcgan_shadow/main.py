"""
expect: GL001 trainer.py:48, GL001 trainer.py:52
dynamic: confirm
source: https://github.com/IsHYuhi/ST-CGAN_Stacked_Conditional_Generative_Adversarial_Networks/issues/17

The report asks about two .detach() calls in the generator phase of this ST-CGAN (shadow
detection + removal) trainer: when G1/G2 are updated, the stacked fakes are fed to D1/D2 as
fake.detach(), so the two adversarial terms of the generator loss are built wholly from cut
values and never reach G1 or G2; only the L1 data terms train the generators, silently. This
program rebuilds the two-stage trainer (trainer.py) on tiny conv nets and random images, shows
that the adversarial terms carry no graph at all and that the generator gradient is exactly the
same with and without them, while a version feeding D the un-detached fakes gives G1 an
adversarial gradient.
"""
import torch
import torch.nn as nn
from trainer import StackedCGANTrainer, set_requires_grad

torch.manual_seed(0)


def conv_net(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, 8, 3, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(8, cout, 3, padding=1))


G1, G2 = conv_net(3, 1), conv_net(4, 3)
D1, D2 = conv_net(4, 1), conv_net(7, 1)
trainer = StackedCGANTrainer(G1, G2, D1, D2)

image = torch.rand(4, 3, 16, 16)
gt_mask = (torch.rand(4, 1, 16, 16) > 0.5).float()
gt_free = torch.rand(4, 3, 16, 16)

for step in range(3):
    detected, removed = trainer.discriminator_step(image, gt_mask, gt_free)
    _, adv1, adv2 = trainer.generator_step(image, gt_mask, gt_free, detected, removed)
    # the adversarial terms of the generator loss have no graph at all
    assert not adv1.requires_grad and not adv2.requires_grad

# gradient of G1 with the adversarial weights on vs. off: identical
def g1_grad(lam_adv):
    trainer.lam = (5.0, lam_adv, lam_adv)
    detected = G1(image)
    removed = G2(torch.cat([image, detected], 1))
    total, _, _ = trainer.generator_losses(image, gt_mask, gt_free, detected, removed)
    grads = torch.autograd.grad(total, list(G1.parameters()))
    return torch.cat([g.flatten() for g in grads])

g_with, g_without = g1_grad(100.0), g1_grad(0.0)
assert torch.allclose(g_with, g_without), "adversarial term should contribute nothing"

# fixed variant: the generator phase feeds D the fakes without detaching them
set_requires_grad([D1, D2], False)
detected = G1(image)
d1_out = D1(torch.cat([image, detected], 1))
adv_fixed = nn.functional.binary_cross_entropy_with_logits(d1_out, torch.ones_like(d1_out))
grads = torch.autograd.grad(adv_fixed, list(G1.parameters()))
assert sum(g.abs().sum() for g in grads) > 0
print("p01 ok: adversarial generator terms never reach G1/G2")
