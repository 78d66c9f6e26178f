"""
expect: none
dynamic: dismiss
source: https://github.com/mandalinadagi/WGSR/blob/HEAD/codes/models/SRRaGAN_model.py

Wavelet-guided perceptual super-resolution: a relativistic GAN whose
discriminator only sees the high-frequency Haar bands of the luminance of the
SR and HR images (the bands come from a fixed buffer convolution, sr_model.py).
The training step freezes D by switching requires_grad off on its parameters,
computes the generator loss with `pred_real = net_d(hf_hr).detach()`, then
unfreezes D and trains it on `hf_sr.detach()`, with a WGAN-GP style penalty on
`interp = a * hf_sr.detach() + (1 - a) * hf_hr` that is made a leaf with
`interp.requires_grad = True` and differentiated with create_graph=True.
Every detach and every requires_grad switch here is on purpose: the generator
still receives the adversarial gradient through D(hf_sr), D receives none during
the G step, G receives none from D's loss, and the penalty does reach D's
weights. The asserts check each of these, and that short training lowers the
pixel loss and moves both networks.
"""
import torch

from sr_model import build_model

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(n=8):
    coarse = torch.rand(n, 3, 4, 4)
    hr = torch.nn.functional.interpolate(coarse, size=(16, 16), mode="bilinear", align_corners=False)
    hr = (hr + 0.1 * torch.sin(torch.arange(16.0) * 1.7)).clamp(0, 1)
    lr = torch.nn.functional.avg_pool2d(hr, 2)
    return lr, hr


def g_grads(model, loss):
    model.net_g.zero_grad()
    loss.backward(retain_graph=True)
    return torch.cat([p.grad.flatten() for p in model.net_g.parameters()])


model = build_model(gan_weight=0.1, gp_weight=1.0)
lr_img, hr_img = make_batch()

# G step as the trainer does it: D frozen, adversarial term still reaches G.
model.set_d_trainable(False)
total, l_pix, l_gan, hf_sr, hf_hr = model.generator_loss(lr_img, hr_img)
only_pix = g_grads(model, l_pix)
with_gan = g_grads(model, total)
assert not torch.allclose(only_pix, with_gan)
assert all(p.grad is None for p in model.net_d.parameters())

# D step: D gets gradients (incl. from the penalty), G gets none.
model.set_d_trainable(True)
model.net_g.zero_grad()
d_total, l_d, l_gp = model.discriminator_loss(hf_sr, hf_hr)
assert l_gp.requires_grad and l_gp.grad_fn is not None
d_total.backward()
assert all(p.grad is None for p in model.net_g.parameters())
d_full = torch.cat([p.grad.flatten() for p in model.net_d.parameters()])
model.net_d.zero_grad()
_, l_d_only, _ = model.discriminator_loss(hf_sr, hf_hr)
l_d_only.backward()
d_plain = torch.cat([p.grad.flatten() for p in model.net_d.parameters()])
assert d_plain.abs().sum() > 0 and not torch.allclose(d_full, d_plain)

# Short training run.
model = build_model(gan_weight=0.1, gp_weight=1.0)
g_before = [p.detach().clone() for p in model.net_g.parameters()]
d_before = [p.detach().clone() for p in model.net_d.parameters()]
pix = []
for it in range(150):
    lr_img, hr_img = make_batch()
    model.optimize_parameters(lr_img, hr_img)
    pix.append(model.log["l_pix"])
assert sum(pix[-10:]) / 10 < 0.6 * sum(pix[:10]) / 10, (pix[:3], pix[-3:])
assert all(not torch.equal(a, p) for a, p in zip(g_before, model.net_g.parameters()))
assert all(not torch.equal(a, p) for a, p in zip(d_before, model.net_d.parameters()))
print(f"pixel loss {sum(pix[:10]) / 10:.4f} -> {sum(pix[-10:]) / 10:.4f}")
