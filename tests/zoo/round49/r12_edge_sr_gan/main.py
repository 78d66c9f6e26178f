"""
expect: GL005 model.py:62
dynamic: confirm
source: https://github.com/knazeri/edge-informed-sisr/issues/12

An edge-informed super-resolution GAN: the model builds both the discriminator loss and the generator loss (the
generator's adversarial and feature-matching terms go through the discriminator) in one process() call, then its
backward() steps the discriminator optimizer before calling gen_loss.backward(). The discriminator's convolutions
saved their weights for the generator-loss graph; Adam's step updates those weights in place, so the second
backward finds a saved tensor at a newer version and raises "modified by an inplace operation" (the error in the
linked issue, which appeared once PyTorch started checking this). The program shows the error, then shows that
running gen_loss.backward() before the discriminator step trains both networks.
"""
import torch

from model import EdgeSRModel

torch.manual_seed(0)
torch.set_num_threads(1)

lr_img = torch.rand(2, 3, 8, 8)
lr_edge = (torch.rand(2, 1, 8, 8) > 0.7).float()
hr_img = torch.rand(2, 3, 16, 16)
hr_edge = (torch.rand(2, 1, 16, 16) > 0.7).float()

model = EdgeSRModel()
outputs, gen_loss, dis_loss = model.process(lr_img, hr_img, lr_edge, hr_edge)
try:
    model.backward(gen_loss, dis_loss)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised

# intended order: both backward passes before either optimizer step
model2 = EdgeSRModel()
g_before = [p.detach().clone() for p in model2.generator.parameters()]
d_before = [p.detach().clone() for p in model2.discriminator.parameters()]
outputs, gen_loss, dis_loss = model2.process(lr_img, hr_img, lr_edge, hr_edge)
dis_loss.backward()
d_grads = [p.grad.clone() for p in model2.discriminator.parameters()]
model2.discriminator.zero_grad()
gen_loss.backward()
model2.discriminator.zero_grad()
for p, g in zip(model2.discriminator.parameters(), d_grads):
    p.grad = g
model2.dis_optimizer.step()
model2.gen_optimizer.step()
assert all(not torch.equal(a, b) for a, b in zip(g_before, model2.generator.parameters()))
assert all(not torch.equal(a, b) for a, b in zip(d_before, model2.discriminator.parameters()))
print("optimizer step between the two backward calls raised the in-place error; reordered update trains both nets")
