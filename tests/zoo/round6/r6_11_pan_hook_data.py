"""expect: GL001 34
dynamic: confirm
source: https://github.com/DLHacks/pix2pix_PAN/issues/1

pix2pix with a Perceptual Adversarial Network loss: forward hooks on the
discriminator's convolutions collect intermediate feature maps, and the
generator is supposed to be trained to match real and fake features (the
PAN loss) in addition to the usual GAN loss. The hook stores output.data,
which strips the autograd history, so the PAN term that the model class adds
to loss_G is a constant: it shows up in the logs but contributes no gradient
to the generator (or the discriminator).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PANDiscriminator(nn.Module):
    def __init__(self, in_ch=6, ndf=8):
        super().__init__()
        self.intermediate_outputs = []
        convs = [nn.Conv2d(in_ch, ndf, 4, 2, 1), nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.Conv2d(ndf * 2, 1, 3, 1, 1)]
        layers = []
        for conv in convs:
            conv.register_forward_hook(self.add_intermediate_output)
            layers += [conv, nn.LeakyReLU(0.2)]
        self.model = nn.Sequential(*layers[:-1])

    def forward(self, x):
        self.intermediate_outputs = []
        return self.model(x)

    def add_intermediate_output(self, conv, inputs, output):
        self.intermediate_outputs.append(output.data)

    def get_intermediate_outputs(self):
        return self.intermediate_outputs


class PANModel:
    def __init__(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = PANDiscriminator()
        self.pan_lambdas = [5.0, 1.0, 5.0]
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)

    def perceptual_loss(self, real_A, real_B, fake_B):
        self.netD(torch.cat([real_A, fake_B], 1))
        fake_inters = self.netD.get_intermediate_outputs()
        self.netD(torch.cat([real_A, real_B], 1))
        real_inters = self.netD.get_intermediate_outputs()
        return sum(F.l1_loss(f, r) * lam for f, r, lam in zip(fake_inters, real_inters, self.pan_lambdas))

    def optimize_G(self, real_A, real_B):
        self.optimizer_G.zero_grad()
        fake_B = self.netG(real_A)
        pred_fake = self.netD(torch.cat([real_A, fake_B], 1))
        self.loss_G_GAN = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        self.loss_PAN = self.perceptual_loss(real_A, real_B, fake_B)
        self.loss_G = self.loss_G_GAN + self.loss_PAN
        self.loss_G.backward()
        self.optimizer_G.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PANModel()
    real_A, real_B = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    model.optimize_G(real_A, real_B)
    assert model.loss_PAN.item() > 0
    assert not model.loss_PAN.requires_grad, "PAN term should be disconnected"
    assert model.netG[0].weight.grad is not None        # only the GAN term reached G
    print("OK: PAN loss is logged but is a constant w.r.t. the generator")
