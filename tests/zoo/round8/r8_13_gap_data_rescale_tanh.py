"""
expect: GL005 26
dynamic: confirm
source: https://github.com/OmidPoursaeed/Generative_Adversarial_Perturbations/issues/4

Generative adversarial perturbations (GAP): a generator ending in Tanh produces
a perturbation, and normalize_and_scale() rescales it to the L-inf budget by
editing the generator output in place through `.data`. That output is the
tensor TanhBackward saved for backward; because the edit goes through .data,
the version counter is not bumped and no error is raised -- backward silently
uses the rescaled values in tanh's derivative (1 - y^2) and also ignores the
scaling itself, so the generator receives a wrong gradient ("Wrong
Implementation"). Asserted: the gradient differs from the one obtained with an
out-of-place rescaling that has the same forward value.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
MAG = 0.05


def normalize_and_scale(delta_im):
    linf = delta_im.detach().abs().amax(dim=(1, 2, 3), keepdim=True)
    delta_im.data.mul_(torch.clamp(MAG / linf, max=1.0))
    return delta_im


def normalize_and_scale_reference(delta_im):
    linf = delta_im.detach().abs().amax(dim=(1, 2, 3), keepdim=True)
    return delta_im * torch.clamp(MAG / linf, max=1.0)


netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
classifier = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 4)).requires_grad_(False)
image = torch.rand(2, 3, 8, 8)
target = torch.tensor([1, 3])


def generator_grad(scale_fn):
    netG.zero_grad()
    delta = scale_fn(netG(image))
    recons = image + delta
    loss = torch.log(F.cross_entropy(classifier(recons), target))
    loss.backward()
    return loss.detach(), [p.grad.clone() for p in netG.parameters()]


loss_data, grads_data = generator_grad(normalize_and_scale)  # no error raised
loss_ref, grads_ref = generator_grad(normalize_and_scale_reference)
assert torch.allclose(loss_data, loss_ref), "forward values should agree"
mismatch = max((a - b).abs().max() / b.abs().max() for a, b in zip(grads_data, grads_ref))
assert mismatch > 0.5, mismatch
print("OK: .data rescale of the Tanh output silently corrupts the gradient (rel. err %.2f)" % mismatch)
