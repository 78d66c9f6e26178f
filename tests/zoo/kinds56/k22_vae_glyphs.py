"""
expect: GL001 68
dynamic: confirm
source: none, invented

A variational autoencoder on 8x8 binary "glyphs" (random strokes on a grid), written as a script whose
`main()` parses arguments, builds the model through a nested factory `make_vae`, creates the optimizer
and runs the training loop.  With `--recon bce` the reconstruction term is computed as
`F.binary_cross_entropy(x_hat.detach(), x, ...)`, so only the KL term reaches the graph: the encoder
is pushed towards the prior and the decoder gets no gradient at all.  With `--recon mse` the
reconstruction term uses `x_hat` directly.  The asserts show that for `bce` every decoder parameter
has `.grad is None` and is unchanged after training, while for `mse` the decoder trains and the
reconstruction error ends clearly lower.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def glyphs(n):
    img = torch.zeros(n, 8, 8)
    for i in range(n):
        for _ in range(2):
            if torch.rand(()) < 0.5:
                img[i, torch.randint(0, 8, ()), :] = 1.0
            else:
                img[i, :, torch.randint(0, 8, ())] = 1.0
    return img.view(n, 64)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--recon", choices=["bce", "mse"], default="bce")
    parser.add_argument("--latent", type=int, default=6)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=2e-3)
    args = parser.parse_args(argv)
    torch.manual_seed(0)

    def make_vae(hidden, latent):
        class VAE(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent))
                self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, 64), nn.Sigmoid())

            def forward(self, x):
                mu, logvar = self.enc(x).chunk(2, dim=-1)
                z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
                return self.dec(z), mu, logvar

        return VAE()

    model = make_vae(args.hidden, args.latent)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    dec_start = {k: v.clone() for k, v in model.dec.state_dict().items()}
    history = []
    for step in range(args.steps):
        x = glyphs(64)
        x_hat, mu, logvar = model(x)
        if args.recon == "bce":
            recon = F.binary_cross_entropy(x_hat.detach(), x, reduction="sum") / len(x)
        else:
            recon = 64 * F.mse_loss(x_hat, x)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
        loss = recon + kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            history.append(F.mse_loss(x_hat, x).item())
    dec_grads = [p.grad for p in model.dec.parameters()]
    dec_moved = any(not torch.equal(dec_start[k], v) for k, v in model.dec.state_dict().items())
    return dec_grads, dec_moved, history


if __name__ == "__main__":
    grads, moved, hist_bce = main(["--recon", "bce"])
    assert all(g is None for g in grads) and not moved
    grads, moved, hist = main(["--recon", "mse"])
    assert moved and all(g is not None for g in grads)
    frozen_late, late = sum(hist_bce[-20:]) / 20, sum(hist[-20:]) / 20
    assert late < 0.75 * frozen_late, (frozen_late, late)
    print(f"k22: bce branch leaves the decoder untrained (MSE {frozen_late:.3f}); mse branch reaches {late:.3f}")
