"""
expect: GL001 r14_derain_detached_adv.py:64
dynamic: confirm
source: https://github.com/georgepan900530/CMU18786-Final-Project-Spring2025/blob/0a66f4c698025390921aefeaa97da6cd38e90109/train_module.py

A course project refactored the unofficial attentive-GAN raindrop remover.
The original crashed on current PyTorch because the discriminator loss
backpropagated into an already-stepped generator. The refactor made it run by
feeding the discriminator `t3.detach()` -- but the same detached D(fake) is
then reused for the generator's adversarial term `0.01 * (-loss_fake)`. That
term is now a constant for the generator: loss_G still decreases through the
attention, multi-scale and perceptual terms, so nothing looks wrong, yet the
generator never receives any adversarial signal. The asserts show that the
generator's gradient from the adversarial term alone is None for every
parameter (and the total gradient is identical with or without the term),
while a second, undetached discriminator pass for the generator restores a
non-zero adversarial gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_nets(ch=8):
    net_G = nn.ModuleDict({
        "att": nn.Conv2d(3, 1, 3, padding=1),
        "body": nn.Conv2d(4, ch, 3, padding=1),
        "out": nn.Conv2d(ch, 3, 3, padding=1),
    })
    net_D = nn.ModuleDict({
        "c1": nn.Conv2d(3, ch, 3, padding=1),
        "map": nn.Conv2d(ch, 1, 3, padding=1),
        "fc": nn.Linear(ch, 1),
    })
    return net_G, net_D


def run_G(net_G, x):
    a = torch.sigmoid(net_G["att"](x))
    h = F.relu(net_G["body"](torch.cat([x, a], 1)))
    t3 = x + net_G["out"](h)
    return a, F.avg_pool2d(t3, 4), F.avg_pool2d(t3, 2), t3


def run_D(net_D, x):
    h = F.leaky_relu(net_D["c1"](x), 0.2)
    return net_D["map"](h), torch.sigmoid(net_D["fc"](h.mean(dim=(2, 3))))


def bce(p, real):
    return F.binary_cross_entropy(p, torch.ones_like(p) if real else torch.zeros_like(p))


def forward_process(net_G, net_D, I_, GT_, M_, separate_g_pass):
    A_, t1, t2, t3 = run_G(net_G, I_)
    loss_att = F.mse_loss(A_, M_)
    loss_ML = sum(w * F.mse_loss(s, F.adaptive_avg_pool2d(GT_, s.shape[-1]))
                  for w, s in zip([0.6, 0.8, 1.0], [t1, t2, t3]))
    loss_PL = F.l1_loss(t3, GT_)

    D_map_O, D_fake = run_D(net_D, t3.detach())
    D_map_R, D_real = run_D(net_D, GT_)
    loss_MAP = F.mse_loss(D_map_O, A_.detach()) + D_map_R.pow(2).mean()
    loss_fake = bce(D_fake, real=False)
    loss_real = bce(D_real, real=True)
    loss_D = loss_real + loss_fake + loss_MAP

    if separate_g_pass:
        _, D_fake_g = run_D(net_D, t3)
        adv = 0.01 * (-bce(D_fake_g, real=False))
    else:
        adv = 0.01 * (-loss_fake)
    loss_G = adv + loss_att + loss_ML + loss_PL
    return loss_G, loss_D, adv, loss_att + loss_ML + loss_PL


def batch(gen):
    GT = torch.rand(2, 3, 16, 16, generator=gen)
    M = (torch.rand(2, 1, 16, 16, generator=gen) > 0.8).float()
    return GT * (1 - M) + 0.9 * M, GT, M


def adversarial_grads(separate_g_pass):
    torch.manual_seed(0)
    net_G, net_D = make_nets()
    I_, GT_, M_ = batch(torch.Generator().manual_seed(5))
    loss_G, loss_D, adv, rest = forward_process(net_G, net_D, I_, GT_, M_, separate_g_pass)
    params = list(net_G.parameters())
    g_adv = torch.autograd.grad(adv, params, allow_unused=True, retain_graph=True)
    g_total = torch.autograd.grad(loss_G, params, retain_graph=True)
    g_rest = torch.autograd.grad(rest, params)
    return g_adv, g_total, g_rest


def train(separate_g_pass, steps=3):
    torch.manual_seed(0)
    net_G, net_D = make_nets()
    opt_G = torch.optim.Adam(net_G.parameters(), lr=1e-3, betas=(0.5, 0.99))
    opt_D = torch.optim.Adam(net_D.parameters(), lr=1e-3, betas=(0.5, 0.99))
    gen = torch.Generator().manual_seed(5)
    for _ in range(steps):
        loss_G, loss_D, _, _ = forward_process(net_G, net_D, *batch(gen), separate_g_pass)
        opt_G.zero_grad()
        loss_G.backward(retain_graph=True)
        opt_G.step()
        opt_D.zero_grad()
        loss_D.backward()
        opt_D.step()
    return loss_G.item()


def main():
    g_adv, g_total, g_rest = adversarial_grads(separate_g_pass=False)
    assert all(g is None for g in g_adv)
    assert all(torch.allclose(a, b) for a, b in zip(g_total, g_rest))
    train(separate_g_pass=False)  # runs without any error

    g_adv, g_total, g_rest = adversarial_grads(separate_g_pass=True)
    assert all(g is not None for g in g_adv)
    assert sum(g.abs().sum() for g in g_adv) > 0
    train(separate_g_pass=True)
    print("detached D(fake) in loss_G: no adversarial gradient; separate pass: restored")


if __name__ == "__main__":
    main()
