"""
expect: GL001 model.py:43
dynamic: confirm
source: https://github.com/nikhilsinghmus/image2reverb/issues/37

The report: in image2reverb's LightningModule the generator step passes `fake_spec.detach()`
to the discriminator, so the adversarial term G_loss1 sends nothing to the generator and only
the L1 term trains it (the maintainer agreed it is a bug). This folder rebuilds the module:
model.py holds the G/D pair and training_step(), main.py runs the two optimizer steps like a
Lightning loop. The asserts show the generator's gradient is identical with adversarial weight 1
or 0 (the adversarial term is inert), while the same step without the detach changes it.
"""
import torch

from model import Image2Reverb


def generator_grad(adv_weight, patch_detach=False):
    torch.manual_seed(0)
    module = Image2Reverb(adv_weight=adv_weight)
    f, spec = torch.randn(8, 16), torch.rand(8, 24) * 2 - 1
    if patch_detach:
        # the fixed step: same losses, discriminator sees the live generator output
        fake = module.g(f)
        d_fake2 = module.d(fake, f)
        loss = adv_weight * ((d_fake2 - 1) ** 2).mean() + module.l1_weight * (fake - spec).abs().mean()
    else:
        loss = module.training_step((f, spec), optimizer_idx=0)
    module.zero_grad()
    loss.backward()
    return torch.cat([p.grad.flatten() for p in module.g.parameters()])


def fit(steps=3):
    torch.manual_seed(1)
    module = Image2Reverb()
    opt_g, opt_d = module.configure_optimizers()
    f, spec = torch.randn(8, 16), torch.rand(8, 24) * 2 - 1
    for _ in range(steps):
        for idx, opt in ((0, opt_g), (1, opt_d)):
            opt.zero_grad()
            module.training_step((f, spec), idx).backward()
            opt.step()
    return module


with_adv = generator_grad(1.0)
without_adv = generator_grad(0.0)
assert torch.allclose(with_adv, without_adv), "adversarial term gives G nothing"
fixed_with = generator_grad(1.0, patch_detach=True)
fixed_without = generator_grad(0.0, patch_detach=True)
assert not torch.allclose(fixed_with, fixed_without), "without the detach the adversarial term reaches G"
fit()
print("ok: detached fake in the G step makes the adversarial loss inert for the generator")
