"""
expect: none
dynamic: dismiss
source: https://github.com/GeorgeEskandar/USIS-Unsupervised-Semantic-Image-Synthesis/blob/c01426726db2a1a9fdfdf06e971f5f0821ab234b/models/models.py

USIS trains a SPADE-style generator from label maps without paired photos:
a segmentation network S must recover the label map from the generated
image, and an unconditional discriminator Du judges realism. The model's
forward has one branch per optimiser. In the generator branch, fake images
flow into S and Du with full history. In the S branch and the Du branch the
fake is regenerated under torch.no_grad(), so those losses can only move S or
Du -- that is the intent, since G must not be trained to help S or to fool
Du's own update. The R1 branch sets `image.requires_grad = True` on the real
batch (a leaf from the loader) so the penalty can differentiate D's output
with respect to the input (only D's weights feel it; a last-layer bias does
not change that input gradient). Nothing here cuts a path that should be trained.
The asserts check that G gets gradients only from its own branch, that the S
and Du branches leave G's gradients empty while filling their own networks,
that R1 reaches Du's weights, and that all three networks move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_LABELS, H = 4, 16


class SPADEGenerator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.fc = nn.Conv2d(N_LABELS, ch, 3, padding=1)
        self.gamma = nn.Conv2d(N_LABELS, ch, 3, padding=1)
        self.beta = nn.Conv2d(N_LABELS, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, label):
        x = F.instance_norm(self.fc(label))
        x = x * (1 + self.gamma(label)) + self.beta(label)  # spatially adaptive modulation
        return torch.tanh(self.out(F.leaky_relu(x, 0.2)))


def d_r1_loss(real_pred, real_img):
    (grad_real,) = torch.autograd.grad(real_pred.sum(), real_img, create_graph=True)
    return grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1)


class USISModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.netG = SPADEGenerator()
        self.netS = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, N_LABELS, 1))
        self.netDu = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 2, 1))

    def forward(self, image, label, mode):
        target = label.argmax(1)
        if mode == "losses_G":
            fake = self.netG(label)
            loss_G_seg = F.cross_entropy(self.netS(fake), target)
            loss_G_GAN = F.softplus(-self.netDu(fake)).mean()
            return loss_G_seg + loss_G_GAN
        if mode == "losses_S":
            with torch.no_grad():
                fake = self.netG(label)
            return F.cross_entropy(self.netS(fake), target)
        if mode == "losses_Du":
            with torch.no_grad():
                fake = self.netG(label)
            loss_fake = F.softplus(self.netDu(fake)).mean()
            loss_real = F.softplus(-self.netDu(image)).mean()
            return loss_fake + loss_real
        if mode == "Du_regularize":
            image.requires_grad = True
            real_pred = self.netDu(image)
            return 10 * d_r1_loss(real_pred, image).mean()
        raise ValueError(mode)


def batch(gen):
    lab = torch.randint(0, N_LABELS, (2, H, H), generator=gen)
    label = F.one_hot(lab, N_LABELS).permute(0, 3, 1, 2).float()
    image = torch.rand(2, 3, H, H, generator=gen) * 2 - 1
    return image, label


def grads_of(net):
    return [p.grad for p in net.parameters()]


def main():
    model = USISModel()
    opt_G = torch.optim.Adam(model.netG.parameters(), lr=1e-3)
    opt_S = torch.optim.Adam(model.netS.parameters(), lr=1e-3)
    opt_D = torch.optim.Adam(model.netDu.parameters(), lr=1e-3)
    start = {n: p.detach().clone() for n, p in model.named_parameters()}
    gen = torch.Generator().manual_seed(9)

    for _ in range(3):
        image, label = batch(gen)

        model.zero_grad(set_to_none=True)
        model(image, label, "losses_G").backward()
        assert all(g is not None for g in grads_of(model.netG))
        opt_G.step()

        model.zero_grad(set_to_none=True)
        model(image, label, "losses_S").backward()
        assert all(g is None for g in grads_of(model.netG))
        assert all(g is not None for g in grads_of(model.netS))
        opt_S.step()

        model.zero_grad(set_to_none=True)
        model(image, label, "losses_Du").backward()
        assert all(g is None for g in grads_of(model.netG))
        opt_D.step()

        model.zero_grad(set_to_none=True)
        model(image, label, "Du_regularize").backward()
        assert all(p.grad is not None for p in model.netDu.parameters() if p.dim() > 1)
        assert all(g is None for g in grads_of(model.netG))
        opt_D.step()

    moved = {n: not torch.equal(start[n], p) for n, p in model.named_parameters()}
    assert all(moved.values()), [n for n, m in moved.items() if not m]
    print("G trained only in its branch; S and Du trained on no-grad fakes; R1 reached Du")


if __name__ == "__main__":
    main()
