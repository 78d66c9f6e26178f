"""
expect: GL005 main.py:40, GL005 main.py:43
dynamic: confirm
source: https://github.com/lucabergamini/VAEGAN-PYTORCH/issues/5

A VAE-GAN training step in the layout of the linked project: one forward pass produces the
encoder, decoder and discriminator losses (vaegan.py), and the trainer then backpropagates them
one after another through the same graph, each followed by its own optimizer step:
encoder loss backward(retain_graph=True) -> optimizer_encoder.step() -> decoder loss backward.
The decoder loss also depends on the encoder (through the latent code), so its backward needs
the encoder weights that the encoder's Linear layers saved in the forward pass; but
optimizer_encoder.step() has already overwritten those weights in place. PyTorch <= 1.4 silently
used the new weights (a wrong gradient); current PyTorch raises "modified by an inplace
operation", as the report shows. The decoder step has the same defect towards the
discriminator backward, whose loss also flows through the decoder. The asserts catch the error
at the decoder backward, show that with the encoder step left out the decoder step still breaks
the discriminator backward, and show the repaired ordering (every gradient taken from the intact
graph with torch.autograd.grad before any step) runs and changes all three sub-networks.
"""
import torch

from vaegan import VaeGan, vaegan_losses

torch.manual_seed(0)
torch.set_num_threads(1)

net = VaeGan()
optimizer_encoder = torch.optim.RMSprop(net.encoder.parameters(), lr=1e-3)
optimizer_decoder = torch.optim.RMSprop(net.decoder.parameters(), lr=1e-3)
optimizer_discriminator = torch.optim.RMSprop(net.discriminator.parameters(), lr=1e-3)
data = torch.rand(32, 16) * 2 - 1


def train_step(x, step_encoder=True):
    recon, logits, layers, mu, logvar = net(x)
    loss_encoder, loss_decoder, loss_discriminator = vaegan_losses(x, logits, layers, mu, logvar)
    net.zero_grad()
    loss_encoder.backward(retain_graph=True)
    if step_encoder:
        optimizer_encoder.step()
    net.zero_grad()
    loss_decoder.backward(retain_graph=True)
    optimizer_decoder.step()
    net.discriminator.zero_grad()
    loss_discriminator.backward()
    optimizer_discriminator.step()


try:
    train_step(data)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

try:
    train_step(data, step_encoder=False)  # same order, encoder step left out
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised


def train_step_fixed(x):
    recon, logits, layers, mu, logvar = net(x)
    loss_encoder, loss_decoder, loss_discriminator = vaegan_losses(x, logits, layers, mu, logvar)
    groups = [(loss_encoder, net.encoder, optimizer_encoder),
              (loss_decoder, net.decoder, optimizer_decoder),
              (loss_discriminator, net.discriminator, optimizer_discriminator)]
    grads = [torch.autograd.grad(loss, list(mod.parameters()), retain_graph=True) for loss, mod, _ in groups]
    for (_, mod, opt), gs in zip(groups, grads):
        for p, g in zip(mod.parameters(), gs):
            p.grad = g
        opt.step()


before = {n: p.detach().clone() for n, p in net.named_parameters()}
for _ in range(3):
    train_step_fixed(data)
for part in ("encoder", "decoder", "discriminator"):
    assert any(not torch.equal(p, before[n]) for n, p in net.named_parameters() if n.startswith(part))
print("encoder step before the decoder backward breaks the shared graph; grads-first ordering trains all parts")
