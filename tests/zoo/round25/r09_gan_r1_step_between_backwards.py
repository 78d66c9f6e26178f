"""
expect: GL005 48
dynamic: confirm
source: https://github.com/Lightning-AI/pytorch-lightning/issues/2820

The question: a GAN with R1 regularisation tries to take several optimizer steps in
one training step and gets "modified by an inplace operation" / "backward through
the graph a second time". Here the discriminator update backs up the adversarial
loss with retain_graph=True, steps the optimizer, and only then differentiates the
same real-image prediction for the R1 penalty; the step has rewritten the weights
that graph saved. The asserts show the failure and that computing R1 before the
step (one combined backward) trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class GANModule:
    def __init__(self, reg_before_step=False, r1_gamma=10.0):
        self.G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))
        self.D = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3)
        self.reg_before_step = reg_before_step
        self.r1_gamma = r1_gamma

    def r1_penalty(self, real_pred, real):
        (grad,) = torch.autograd.grad(real_pred.sum(), real, create_graph=True)
        return 0.5 * self.r1_gamma * grad.pow(2).sum(1).mean()

    def discriminator_step(self, real, z, do_reg):
        fake = self.G(z).detach()
        real = real.requires_grad_(do_reg)
        real_pred = self.D(real)
        d_loss = F.softplus(self.D(fake)).mean() + F.softplus(-real_pred).mean()
        if self.reg_before_step:
            if do_reg:
                d_loss = d_loss + self.r1_penalty(real_pred, real)
            self.opt_d.zero_grad()
            d_loss.backward()
            self.opt_d.step()
            return
        self.opt_d.zero_grad()
        d_loss.backward(retain_graph=True)
        self.opt_d.step()
        if do_reg:
            reg = self.r1_penalty(real_pred, real)
            self.opt_d.zero_grad()
            reg.backward()
            self.opt_d.step()


real = torch.randn(32, 16)
z = torch.randn(32, 8)

gan = GANModule()
gan.discriminator_step(real.clone(), z, do_reg=False)  # plain steps are fine
failed = False
try:
    gan.discriminator_step(real.clone(), z, do_reg=True)
except RuntimeError as e:
    failed = "modified by an inplace operation" in str(e)
assert failed

ok = GANModule(reg_before_step=True)
w0 = ok.D[0].weight.detach().clone()
ok.discriminator_step(real.clone(), z, do_reg=True)
assert ok.D[0].weight.grad.abs().sum() > 0
assert not torch.equal(ok.D[0].weight, w0)
print("ok")
