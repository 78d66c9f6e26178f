"""
expect: none
dynamic: dismiss
source: https://github.com/THUGAF/SVRE-Nowcasting/blob/136659ef375437bc64bb8ca20b9bc5db585cef35/train_gan.py

SVRE-Nowcasting trains a radar precipitation nowcaster adversarially with an ensemble
trick: each step runs the stochastic generator several times on the same input
frames, keeps the list of forecasts, scores them with the discriminator on
`.detach()`-ed copies, steps the discriminator (after clipping its gradient norm in
place), and only then reuses the very same forecast tensors - built before the
optimizer step - for the generator loss: adversarial term through the discriminator,
plus the spatial-variability (SVRE) and weighted L1 terms on the ensemble mean. That
ordering looks like the classic "optimizer.step() between forward and backward" bug,
but it is fine: the forecasts' graph contains only generator ops, and the generator
loss runs a fresh discriminator forward with the updated weights, so nothing saved
for backward was edited in place; the detach only keeps the discriminator loss from
training the generator. (The repo's weight-clipping helper is left out here; it is
not part of the pattern.) The asserts check that the discriminator backward leaves
the generator without gradients, that the clipped discriminator gradient norm is
bounded, that the generator loss backpropagates through the pre-step forecasts
without error, and that both networks change while the forecast error drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)
torch.set_num_threads(1)

T_IN, T_OUT, H, W = 4, 3, 16, 16
N_ENS = 3


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(T_IN + 1, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, T_OUT, 3, padding=1), nn.Sigmoid())

    def forward(self, frames):
        noise = torch.randn(frames.size(0), 1, H, W)       # stochastic member of the ensemble
        return self.net(torch.cat([frames, noise], dim=1))


class SeqDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(T_IN + T_OUT, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(16, 1, 4, stride=2, padding=1))

    def forward(self, seq):
        return self.net(seq).mean(dim=(1, 2, 3))


def svre_loss(pred, truth, eps=1e-8):
    cv_p = pred.std(dim=(1, 2, 3)) / (pred.mean(dim=(1, 2, 3)) + eps)
    cv_t = truth.std(dim=(1, 2, 3)) / (truth.mean(dim=(1, 2, 3)) + eps)
    return F.l1_loss(cv_p, cv_t)


def weighted_l1(pred, truth):
    return torch.mean((1.0 + 4.0 * truth) * (pred - truth).abs())


def radar_batch(n=4):
    base = F.avg_pool2d(torch.rand(n, 1, H + 4, W + 4), 5, stride=1)   # smooth echo field
    frames = torch.cat([torch.roll(base, shifts=k, dims=3) for k in range(T_IN + T_OUT)], dim=1)
    return frames[:, :T_IN], frames[:, T_IN:]


def main():
    gen, disc = Forecaster(), SeqDiscriminator()
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-3)
    opt_d = torch.optim.Adam(disc.parameters(), lr=1e-4)
    g0 = [p.detach().clone() for p in gen.parameters()]
    d0 = [p.detach().clone() for p in disc.parameters()]
    inp, truth = radar_batch()
    errs = []
    for _ in range(40):
        preds = [gen(inp) for _ in range(N_ENS)]

        real_score = disc(torch.cat([inp, truth], dim=1))
        fake_score = torch.stack([disc(torch.cat([inp, p.detach()], dim=1)) for p in preds]).mean(0)
        loss_d = F.mse_loss(fake_score, torch.zeros_like(fake_score)) + \
            F.mse_loss(real_score, torch.ones_like(real_score))
        opt_g.zero_grad()
        opt_d.zero_grad()
        loss_d.backward()
        assert all(p.grad is None for p in gen.parameters())
        total_norm = clip_grad_norm_(disc.parameters(), 0.005)
        clipped = torch.sqrt(sum((p.grad ** 2).sum() for p in disc.parameters()))
        assert clipped <= 0.005 + 1e-6 or total_norm <= 0.005
        opt_d.step()

        fake_score = torch.stack([disc(torch.cat([inp, p], dim=1)) for p in preds]).mean(0)
        pred_mean = torch.stack(preds).mean(0)
        loss_g = 0.01 * F.mse_loss(fake_score, torch.ones_like(fake_score)) + \
            0.1 * svre_loss(pred_mean, truth) + 10.0 * weighted_l1(pred_mean, truth)
        opt_g.zero_grad()
        loss_g.backward()
        assert gen.net[0].weight.grad.abs().sum() > 0
        opt_g.step()
        errs.append(F.l1_loss(pred_mean.detach(), truth).item())

    assert any(not torch.equal(p.detach(), q) for p, q in zip(gen.parameters(), g0))
    assert any(not torch.equal(p.detach(), q) for p, q in zip(disc.parameters(), d0))
    assert sum(errs[-5:]) < sum(errs[:5])
    print("ensemble GAN nowcaster: L1 %.3f -> %.3f" % (sum(errs[:5]) / 5, sum(errs[-5:]) / 5))


if __name__ == "__main__":
    main()
