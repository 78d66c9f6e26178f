"""
expect: GL005 r13_deraindrop_retain_step.py:91
dynamic: confirm
source: https://github.com/shleecs/DeRaindrop_unofficial/blob/a6c090c3dec6e90d50ea87ec048368a8fb3eb1b2/train_module.py

An unofficial PyTorch port of the attentive-GAN raindrop remover. One
forward pass builds everything: the generator's attention maps and multi-scale
outputs, then the discriminator applied to the generator output t3 (not
detached) and to the clean image. The trainer calls loss_G.backward with
retain_graph=True, steps the generator's optimizer, and then calls
loss_D.backward. loss_D contains D(t3), so its backward continues into the
generator, whose convolution weights were saved for backward and have just
been changed in place by optim1.step(). Old PyTorch let this through with
gradients taken from stale saved weights (only thrown away later by
zero_grad); current PyTorch raises "modified by an inplace operation". The
asserts catch that error, and show that feeding the discriminator loss a
detached t3 (while the generator's adversarial term keeps its own, attached
D pass) trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.att = nn.Conv2d(3, 1, 3, padding=1)
        self.body = nn.Conv2d(4, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        a = torch.sigmoid(self.att(x))
        h = F.relu(self.body(torch.cat([x, a], 1)))
        t3 = x + self.out(h)
        t2 = F.avg_pool2d(t3, 2)
        t1 = F.avg_pool2d(t3, 4)
        return [a], t1, t2, t3


class Discriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.c1 = nn.Conv2d(3, ch, 3, padding=1)
        self.map = nn.Conv2d(ch, 1, 3, padding=1)
        self.fc = nn.Linear(ch, 1)

    def forward(self, x):
        h = F.leaky_relu(self.c1(x), 0.2)
        return self.map(h), torch.sigmoid(self.fc(h.mean(dim=(2, 3))))


def gan_loss(pred, is_real):
    target = torch.ones_like(pred) if is_real else torch.zeros_like(pred)
    return F.binary_cross_entropy(pred, target)


class Trainer:
    def __init__(self, detach_for_d):
        self.net_G, self.net_D = Generator(), Discriminator()
        self.optim1 = torch.optim.Adam(self.net_G.parameters(), lr=1e-3, betas=(0.5, 0.99))
        self.optim2 = torch.optim.Adam(self.net_D.parameters(), lr=1e-3, betas=(0.5, 0.99))
        self.detach_for_d = detach_for_d

    def forward_process(self, I_, GT_, M_):
        A_, t1, t2, t3 = self.net_G(I_)
        loss_att = F.mse_loss(A_[-1], M_)
        loss_ML = sum(w * F.mse_loss(s, F.adaptive_avg_pool2d(GT_, s.shape[-1]))
                      for w, s in zip([0.6, 0.8, 1.0], [t1, t2, t3]))
        loss_PL = F.l1_loss(t3, GT_)
        D_map_O, D_fake = self.net_D(t3)
        D_map_R, D_real = self.net_D(GT_)
        loss_MAP = F.mse_loss(D_map_O, A_[-1].detach()) + D_map_R.pow(2).mean()
        loss_fake = gan_loss(D_fake, is_real=False)
        loss_real = gan_loss(D_real, is_real=True)
        loss_G = 0.01 * (-loss_fake) + loss_att + loss_ML + loss_PL
        if self.detach_for_d:
            D_map_O, D_fake = self.net_D(t3.detach())
            loss_MAP = F.mse_loss(D_map_O, A_[-1].detach()) + D_map_R.pow(2).mean()
            loss_fake = gan_loss(D_fake, is_real=False)
        loss_D = loss_real + loss_fake + loss_MAP
        return loss_G, loss_D

    def train_step(self, I_, GT_, M_):
        loss_G, loss_D = self.forward_process(I_, GT_, M_)
        self.optim1.zero_grad()
        loss_G.backward(retain_graph=True)
        self.optim1.step()
        self.optim2.zero_grad()
        loss_D.backward()
        self.optim2.step()
        return loss_G.item(), loss_D.item()


def batch(gen):
    GT = torch.rand(2, 3, 16, 16, generator=gen)
    M = (torch.rand(2, 1, 16, 16, generator=gen) > 0.8).float()
    I = GT * (1 - M) + 0.9 * M
    return I, GT, M


def run(detach_for_d, steps=4):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    tr = Trainer(detach_for_d)
    g0 = [p.detach().clone() for p in tr.net_G.parameters()]
    d0 = [p.detach().clone() for p in tr.net_D.parameters()]
    for _ in range(steps):
        tr.train_step(*batch(gen))
    g_moved = all(not torch.equal(a, b) for a, b in zip(g0, tr.net_G.parameters()))
    d_moved = all(not torch.equal(a, b) for a, b in zip(d0, tr.net_D.parameters()))
    return g_moved, d_moved


def main():
    try:
        run(detach_for_d=False)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    g_moved, d_moved = run(detach_for_d=True)
    assert g_moved and d_moved
    print("loss_D backward after optim1.step(): caught; detached D input: both nets train")


if __name__ == "__main__":
    main()
