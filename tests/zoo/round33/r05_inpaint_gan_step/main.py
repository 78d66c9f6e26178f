"""
expect: GL005 trainer.py:29
dynamic: confirm
source: https://github.com/daa233/generative-inpainting-pytorch/issues/38

In a generative-inpainting trainer the forward builds both the discriminator loss
and the generator's adversarial loss through the same netD, then the training
step calls opt_d.step() (an in-place update of netD's weights, which the linear
layer saved for the generator loss's backward) before losses['g'].backward().
Since PyTorch 1.5 this trips the version counter ([N, 1] TBackward). The asserts
show the buggy step fails with the in-place error and the weight's version moved,
while the fixed ordering (generator gradients taken before the D update) trains.
"""
import torch

from trainer import InpaintTrainer, train_step, train_step_fixed

torch.manual_seed(0)
torch.set_num_threads(1)

trainer = InpaintTrainer()
opt_g = torch.optim.Adam(trainer.netG.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(trainer.netD.parameters(), lr=1e-3)
x = torch.rand(2, 3, 16, 16)
mask = torch.zeros(2, 1, 16, 16)
mask[:, :, 4:12, 4:12] = 1

w = trainer.netD[3].weight
v0 = w._version
raised = None
try:
    train_step(trainer, opt_g, opt_d, x, mask)
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised
assert w._version > v0

before = [p.detach().clone() for p in trainer.netG.parameters()]
for _ in range(3):
    train_step_fixed(trainer, opt_g, opt_d, x, mask)
assert any(not torch.equal(a, p) for a, p in zip(before, trainer.netG.parameters()))
print("ok")
