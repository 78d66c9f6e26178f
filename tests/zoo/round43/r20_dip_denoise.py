"""
expect: none
dynamic: dismiss
source: https://github.com/DmitryUlyanov/deep-image-prior/blob/HEAD/code_sup_mat/denoising.py

Deep-image-prior denoising: a randomly initialised conv net is fitted to a single
noisy image from a fixed random input. Three lines look like autograd mistakes
but are correct. The input is jittered with `noise.normal_()`, an in-place
refill of a detached buffer that no recorded op has saved. The displayed result
is an exponential moving average `out_avg = out_avg * w + out.detach() * (1 - w)`,
a logged copy that is never trained through. And when the PSNR against the noisy
image collapses, the closure rolls the weights back with `param.data.copy_(...)`
after backward has already run and returns `loss * 0`. The asserts show that the
fit to the noisy image improves, that out_avg carries no graph, that the jitter
buffer changes every call without breaking backward, that a forced collapse is
rolled back to exactly the saved weights, and that the smoothed output is closer
to the clean image than the noisy input is.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 24
yy, xx = torch.meshgrid(torch.linspace(0, 1, H), torch.linspace(0, 1, W), indexing="ij")
clean = torch.stack([torch.sin(3 * xx + 1), torch.cos(2 * yy), torch.sin(2 * xx + 3 * yy)]) * 0.4 + 0.5
clean = clean.unsqueeze(0)
noisy = (clean + 0.1 * torch.randn_like(clean)).clamp(0, 1)


def psnr(a, b):
    return 10 * math.log10(1.0 / torch.mean((a - b) ** 2).item())


def make_net(in_ch=8):
    return nn.Sequential(
        nn.Conv2d(in_ch, 32, 3, padding=1, padding_mode="reflect"), nn.BatchNorm2d(32), nn.LeakyReLU(0.2),
        nn.Conv2d(32, 32, 3, stride=2, padding=1, padding_mode="reflect"), nn.BatchNorm2d(32), nn.LeakyReLU(0.2),
        nn.Upsample(scale_factor=2, mode="bilinear"),
        nn.Conv2d(32, 32, 3, padding=1, padding_mode="reflect"), nn.BatchNorm2d(32), nn.LeakyReLU(0.2),
        nn.Conv2d(32, 3, 1), nn.Sigmoid())


net = make_net()
net_input_saved = (0.1 * torch.rand(1, 8, H, W)).detach().clone()
noise = net_input_saved.detach().clone()
reg_noise_std, exp_weight = 1.0 / 30.0, 0.99
mse = nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)

state = {"out_avg": None, "last_net": None, "psnr_last": 0.0, "rolled_back": 0}
FORCE_AT = 150


def closure(it):
    net_input = net_input_saved + noise.normal_() * reg_noise_std
    out = net(net_input)
    if state["out_avg"] is None:
        state["out_avg"] = out.detach()
    else:
        state["out_avg"] = state["out_avg"] * exp_weight + out.detach() * (1 - exp_weight)
    total_loss = mse(out, noisy)
    total_loss.backward()

    psnr_noisy = psnr(out.detach(), noisy)
    if it % 10 == 0:
        if psnr_noisy - state["psnr_last"] < -2:
            for saved, param in zip(state["last_net"], net.parameters()):
                param.data.copy_(saved)
            state["rolled_back"] += 1
            return total_loss * 0
        state["last_net"] = [p.detach().clone() for p in net.parameters()]
        state["psnr_last"] = psnr_noisy
    return total_loss


losses, seen_noise = [], []
for it in range(400):
    if it == FORCE_AT:
        with torch.no_grad():
            for p in net.parameters():
                p.add_(torch.randn_like(p) * 2.0)
    optimizer.zero_grad()
    loss = closure(it)
    if it == FORCE_AT:
        assert state["rolled_back"] == 1 and loss.item() == 0.0
        for saved, p in zip(state["last_net"], net.parameters()):
            assert torch.equal(saved, p)
    if it < 3:
        seen_noise.append(noise.clone())
    losses.append(loss.item())
    optimizer.step()

assert not torch.equal(seen_noise[0], seen_noise[1]) and not torch.equal(seen_noise[1], seen_noise[2])
assert state["out_avg"].grad_fn is None and not state["out_avg"].requires_grad
assert state["rolled_back"] == 1
early, late = sum(losses[:10]) / 10, sum(losses[-10:]) / 10
assert late < 0.3 * early, (early, late)
assert psnr(state["out_avg"], clean) > psnr(noisy, clean) + 2.0, (psnr(state["out_avg"], clean), psnr(noisy, clean))
print(f"fit loss {early:.4f} -> {late:.4f}; PSNR noisy {psnr(noisy, clean):.2f} dB, smoothed {psnr(state['out_avg'], clean):.2f} dB")
