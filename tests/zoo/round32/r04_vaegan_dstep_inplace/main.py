"""
expect: GL005 vaegan.py:44
dynamic: confirm
source: https://github.com/YixinChen-AI/CVAE-GAN-zoos-PyTorch-Beginner/issues/10

A VAE-GAN example fails on newer PyTorch with "one of the variables needed for gradient
computation has been modified by an inplace operation" at the VAE loss backward. The trainer
scores the reconstruction with the discriminator once, backpropagates the discriminator loss
(retain_graph=True), runs the discriminator optimizer step, which updates the discriminator
weights in place, and then backpropagates the VAE's adversarial term through that same score,
whose graph saved the old weights. The asserts show the version-counter error, and that
re-scoring after the step (the fix) trains the VAE.
"""
import torch

from vaegan import VAE, Critic, VAEGANStep

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(32, 16)

buggy = VAEGANStep(VAE(), Critic())
try:
    buggy(x)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "inplace operation" in raised, raised

torch.manual_seed(0)
vae = VAE()
fixed = VAEGANStep(vae, Critic(), fixed=True)
w0 = vae.enc.weight.detach().clone()
for _ in range(5):
    fixed(x)
assert not torch.equal(w0, vae.enc.weight)
print("ok: optimizer step between forward and backward breaks the saved graph")
