"""
expect: none
dynamic: dismiss
source: none, invented

WGAN-GP on a 2-D ring of eight Gaussians, with the same small `update(optimizer, loss)` helper used for both
players. The critic takes n_critic helper steps per iteration, each on a freshly computed critic loss (with a
gradient penalty built by autograd.grad with create_graph). The generator loss -critic(G(z)) is computed only
after the last critic step has run, and it is handed to the same helper, so every backward sees the critic
weights it saved; no graph outlives an optimizer step of the parameters inside it. The asserts show both
networks' weights move and the generated samples drift from the origin towards the radius of the ring.
"""
import math

import torch
import torch.nn as nn

from training import gradient_penalty, update

torch.manual_seed(0)
torch.set_num_threads(1)

Z_DIM, N_CRITIC, GP_WEIGHT = 8, 5, 10.0


def ring_of_gaussians(n=256, radius=2.0):
    k = torch.randint(0, 8, (n,)).float()
    angle = k * (2 * math.pi / 8)
    centres = radius * torch.stack([angle.cos(), angle.sin()], dim=1)
    return centres + 0.05 * torch.randn(n, 2)


def main():
    generator = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
    critic = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    g_opt = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.9))
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))

    g0 = generator[0].weight.detach().clone()
    c0 = critic[0].weight.detach().clone()
    with torch.no_grad():
        radius_before = generator(torch.randn(512, Z_DIM)).norm(dim=1).mean().item()

    for it in range(200):
        for _ in range(N_CRITIC):
            real = ring_of_gaussians()
            with torch.no_grad():
                fake = generator(torch.randn(real.size(0), Z_DIM))
            c_loss = critic(fake).mean() - critic(real).mean() + GP_WEIGHT * gradient_penalty(critic, real, fake)
            update(c_opt, c_loss)

        samples = generator(torch.randn(256, Z_DIM))
        g_loss = -critic(samples).mean()
        update(g_opt, g_loss)

    with torch.no_grad():
        radius_after = generator(torch.randn(512, Z_DIM)).norm(dim=1).mean().item()
    assert not torch.equal(generator[0].weight, g0)
    assert not torch.equal(critic[0].weight, c0)
    assert abs(radius_after - 2.0) < abs(radius_before - 2.0), (radius_before, radius_after)
    print(f"k06: mean sample radius {radius_before:.2f} -> {radius_after:.2f}")


if __name__ == "__main__":
    main()
