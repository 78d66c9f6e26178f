"""expect: none
dynamic: dismiss
source: kinds8 (kind C)

The latent code is deliberately made a fresh leaf from a no_grad encoder output
and handed to Adam inside `[code] + extra_knobs`; it is optimised correctly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 6))
    generator = nn.Sequential(nn.Linear(6, 3 * 8 * 8), nn.Tanh())
    for net in (encoder, generator):
        net.requires_grad_(False)

    photo = torch.rand(1, 3, 8, 8) * 2 - 1
    with torch.no_grad():
        init_code = encoder(photo)

    code = init_code.detach().clone()
    code.requires_grad = True
    brightness = nn.Parameter(torch.zeros(1))
    extra_knobs = [brightness]
    opt = torch.optim.Adam([code] + extra_knobs, lr=0.05)

    start = code.detach().clone()
    for _ in range(5):
        opt.zero_grad()
        recon = generator(code).view_as(photo) + brightness
        loss = F.mse_loss(recon, photo)
        loss.backward()
        assert code.grad is not None
        assert brightness.grad is not None
        opt.step()
    assert not torch.equal(start, code.detach())
    for w in generator.parameters():
        assert w.grad is None
    print("OK")


if __name__ == "__main__":
    main()
