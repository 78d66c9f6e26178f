"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/examples/issues/361

The question: in the DCGAN example's generator update, `output = netD(fake)` runs without a
detach, so "it would compute the netD's grad but it shouldn't"; the reply notes that only
optimizerG.step() follows, so the discriminator is not updated. The discriminator update uses
`netD(fake.detach())`, which is deliberate. This program rebuilds the training loop on small
fully-connected nets. The asserts show the D step gives the generator no gradient by design, the
gradients that the G step leaves in netD are cleared by netD.zero_grad() before the next D
update (D's update equals one computed from fresh gradients), and both networks change.
"""
import torch
import torch.nn as nn

nz = 8
netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 16), nn.Tanh())
netD = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

torch.manual_seed(0)
data = [torch.rand(16, 16) * 2 - 1 for _ in range(4)]
g0, d0 = netG[0].weight.detach().clone(), netD[0].weight.detach().clone()

for i, real in enumerate(data):
    # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    label = torch.full((real.size(0), 1), real_label)
    errD_real = criterion(netD(real), label)
    errD_real.backward()
    noise = torch.randn(real.size(0), nz)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    if i == 0:
        assert all(p.grad is None for p in netG.parameters()), "the D step does not reach G"
    d_grad = [p.grad.clone() for p in netD.parameters()]
    fresh = torch.autograd.grad(criterion(netD(real), torch.full_like(output, real_label))
                                + criterion(netD(fake.detach()), torch.full_like(output, fake_label)),
                                list(netD.parameters()))
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(d_grad, fresh)), "no stale G-step grads in D"
    optimizerD.step()

    # (2) Update G network: maximize log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    assert all(p.grad is not None for p in netG.parameters())
    optimizerG.step()

assert not torch.equal(g0, netG[0].weight) and not torch.equal(d0, netD[0].weight)
print("ok: detached fake in the D step, full graph in the G step; both networks train")
