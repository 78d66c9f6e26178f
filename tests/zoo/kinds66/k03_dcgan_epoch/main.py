"""
expect: GL005 main.py:47
dynamic: confirm
source: none, invented

An epoch function for a small GAN that, like many training scripts, receives its networks and optimizers as
lists and unpacks them. The generator's adversarial loss is computed first, through the discriminator, and
kept around; the discriminator is then updated (backward + opt_d.step()), and only afterwards is the
generator loss backpropagated. The step rewrites the discriminator's weights in place while the generator
loss's graph still holds them as saved tensors, so the delayed backward fails with "one of the variables
needed for gradient computation has been modified by an inplace operation". The assert catches exactly that
error; the reordered epoch (generator update before the discriminator step) runs and both networks train.
"""
import torch
import torch.nn as nn

from models import Generator, Discriminator

torch.manual_seed(0)
torch.set_num_threads(1)

LATENT = 16


def real_batches(n_batches=4, batch=32):
    centre = torch.linspace(-0.5, 0.5, 32)
    return [centre + 0.1 * torch.randn(batch, 32) for _ in range(n_batches)]


def train(epoch, nets, optimizers, loader):
    net_g, net_d = nets
    opt_g, opt_d = optimizers
    criterion = nn.BCEWithLogitsLoss()
    for real in loader:
        ones = torch.ones(real.size(0), 1)
        zeros = torch.zeros(real.size(0), 1)
        noise = torch.randn(real.size(0), LATENT)
        fake = net_g(noise)

        # generator wants the discriminator to call its samples real
        loss_g = criterion(net_d(fake), ones)

        # discriminator update
        opt_d.zero_grad()
        loss_d = criterion(net_d(real), ones) + criterion(net_d(fake.detach()), zeros)
        loss_d.backward()
        opt_d.step()

        # generator update
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
    return loss_g.item(), loss_d.item()


def train_reordered(epoch, nets, optimizers, loader):
    net_g, net_d = nets
    opt_g, opt_d = optimizers
    criterion = nn.BCEWithLogitsLoss()
    for real in loader:
        ones = torch.ones(real.size(0), 1)
        zeros = torch.zeros(real.size(0), 1)
        noise = torch.randn(real.size(0), LATENT)
        fake = net_g(noise)

        opt_g.zero_grad()
        loss_g = criterion(net_d(fake), ones)
        loss_g.backward()
        opt_g.step()

        opt_d.zero_grad()
        loss_d = criterion(net_d(real), ones) + criterion(net_d(fake.detach()), zeros)
        loss_d.backward()
        opt_d.step()
    return loss_g.item(), loss_d.item()


def build():
    net_g, net_d = Generator(LATENT), Discriminator()
    opt_g = torch.optim.Adam(net_g.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(net_d.parameters(), lr=2e-4, betas=(0.5, 0.999))
    return [net_g, net_d], [opt_g, opt_d]


if __name__ == "__main__":
    loader = real_batches()

    nets, opts = build()
    try:
        train(0, nets, opts, loader)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised

    nets, opts = build()
    g_before = nets[0].net[0].weight.detach().clone()
    d_before = nets[1].net[0].weight.detach().clone()
    for epoch in range(2):
        train_reordered(epoch, nets, opts, loader)
    assert not torch.equal(nets[0].net[0].weight, g_before)
    assert not torch.equal(nets[1].net[0].weight, d_before)
    print("gan epoch check ok")
