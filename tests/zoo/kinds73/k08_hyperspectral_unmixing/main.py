"""
expect: none
dynamic: dismiss
source: none, invented

Remote sensing / hyperspectral unmixing. An autoencoder (unmixing.py) maps each 60-band pixel to
abundances of four materials and reconstructs it with learnable endmember spectra. A spectral
smoothness penalty on the endmembers is kept as the attribute `model.smoothness`; the
constructor fills it once, but the training loop calls `model.refresh_penalty()` at every step,
which rebuilds the attribute from the current endmember weights before it is added to the
reconstruction loss. Every step therefore backpropagates through a fresh graph of the current
weights: a plain `backward()` suffices and the penalty tracks the parameters, which is correct.
The asserts show that after each step the stored penalty equals a from-scratch recomputation,
that training runs many steps without retain_graph, that the penalty and the reconstruction
error both fall, and that the learned endmembers are far smoother than those of an
unregularised run.
"""
import torch
import torch.nn.functional as F

from unmixing import UnmixingNet


def smooth_spectrum(n_bands, g):
    x = torch.linspace(0, 1, n_bands)
    centers = torch.rand(3, generator=g)
    widths = 0.05 + 0.2 * torch.rand(3, generator=g)
    return sum(torch.exp(-((x - c) / w) ** 2) for c, w in zip(centers, widths)) / 2


def make_scene(n_pixels=2048, n_bands=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    E = torch.stack([smooth_spectrum(n_bands, g) for _ in range(4)])
    A = torch.distributions.Dirichlet(torch.full((4,), 0.7)).sample((n_pixels,))
    return A @ E + 0.01 * torch.randn(n_pixels, n_bands, generator=g)


def roughness(e):
    return (e[:, 1:] - e[:, :-1]).pow(2).sum(dim=1).mean().item()


def train(pixels, smooth_weight, steps=200, seed=0):
    torch.manual_seed(seed)
    model = UnmixingNet(smooth_weight=smooth_weight)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    log = []
    for step in range(steps):
        batch = pixels[torch.randint(0, len(pixels), (256,))]
        model.refresh_penalty()
        rec = F.mse_loss(model(batch), batch)
        loss = rec + model.smoothness
        opt.zero_grad()
        loss.backward()
        opt.step()
        fresh = model.refresh_penalty().item()
        log.append((rec.item(), model.smoothness.item(), fresh))
    return model, log


def main():
    torch.set_num_threads(1)
    pixels = make_scene()

    model, log = train(pixels, smooth_weight=0.5)
    # the stored attribute always matches the current weights
    assert abs(model.smoothness.item() - 0.5 * roughness(model.endmembers.detach())) < 1e-6
    assert all(abs(stored - fresh) < 1e-7 for _, stored, fresh in log)
    rec0, pen0 = log[0][0], log[0][1]
    rec1, pen1 = log[-1][0], log[-1][1]
    assert pen1 < 0.2 * pen0, (pen0, pen1)
    assert rec1 < 0.5 * rec0, (rec0, rec1)

    plain, _ = train(pixels, smooth_weight=0.0)
    r_reg, r_plain = roughness(model.endmembers.detach()), roughness(plain.endmembers.detach())
    print(f"rec {rec0:.4f}->{rec1:.4f}; penalty {pen0:.4f}->{pen1:.5f}; "
          f"roughness reg={r_reg:.4f} unreg={r_plain:.4f}")
    assert r_reg < 0.3 * r_plain
    print("k08 OK: penalty attribute refreshed from current weights every step")


if __name__ == "__main__":
    main()
