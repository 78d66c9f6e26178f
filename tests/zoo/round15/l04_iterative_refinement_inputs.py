"""
expect: none
dynamic: dismiss
source: https://github.com/yuval-alaluf/restyle-encoder/blob/9088892689b3c90dd82b94922b4ee5a9d37875d0/training/coach_restyle_psp.py

ReStyle's coach refines an inversion over several iterations per batch: from the second iteration on
it feeds `y_hat.clone().detach().requires_grad_(True)` and the detached latent back into the encoder,
computes the loss of that iteration, calls `loss.backward()` each time and steps the optimizer once
per batch. This program rebuilds that loop with a small encoder/decoder. Detaching the previous
output and switching requires_grad on it looks like the "silence the error" pattern, but the encoder
is re-run on it, so every iteration's loss reaches the encoder: its gradient grows with each
iteration's backward, the weights move, and the reconstruction error falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RefineEncoder(nn.Module):
    """Predicts a latent offset from (image, current reconstruction)."""

    def __init__(self, pix=32, latent=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * pix, 64), nn.ReLU(), nn.Linear(64, latent))

    def forward(self, x_input):
        return self.net(x_input)


class ReStyleNet(nn.Module):
    def __init__(self, pix=32, latent=8):
        super().__init__()
        self.encoder = RefineEncoder(pix, latent)
        self.decoder = nn.Linear(latent, pix)
        self.decoder.requires_grad_(False)
        self.register_buffer("latent_avg", torch.zeros(latent))

    def forward(self, x_input, latent=None):
        delta = self.encoder(x_input)
        base = self.latent_avg.expand_as(delta) if latent is None else latent
        new_latent = base + delta
        return torch.tanh(self.decoder(new_latent)), new_latent


class Coach:
    def __init__(self, net, n_iters=3):
        self.net = net
        self.n_iters = n_iters
        self.optimizer = torch.optim.Adam(net.encoder.parameters(), lr=3e-3)
        self.avg_image = torch.tanh(net.decoder(net.latent_avg)).detach()

    def perform_train_iteration_on_batch(self, x):
        y_hat, latent = None, None
        grad_norms = []
        for it in range(self.n_iters):
            if it == 0:
                x_input = torch.cat([x, self.avg_image.expand_as(x)], dim=1)
                y_hat, latent = self.net(x_input, latent=None)
            else:
                y_hat_clone = y_hat.clone().detach().requires_grad_(True)
                latent_clone = latent.clone().detach().requires_grad_(True)
                x_input = torch.cat([x, y_hat_clone], dim=1)
                y_hat, latent = self.net(x_input, latent=latent_clone)
            loss = F.mse_loss(y_hat, x)
            loss.backward()
            grad_norms.append(self.net.encoder.net[0].weight.grad.norm().item())
        return grad_norms, loss.detach()

    def train_step(self, x):
        self.optimizer.zero_grad()
        grad_norms, loss = self.perform_train_iteration_on_batch(x)
        self.optimizer.step()
        return grad_norms, loss


net = ReStyleNet()
x = torch.tanh(net.decoder(torch.randn(16, 8))).detach()
coach = Coach(net)
w0 = net.encoder.net[0].weight.detach().clone()
norms, first = coach.train_step(x)
assert norms[0] > 0 and norms[1] != norms[0] and norms[2] != norms[1], norms
for _ in range(150):
    _, last = coach.train_step(x)
assert not torch.equal(w0, net.encoder.net[0].weight.detach())
assert last < 0.5 * first, (first, last)
print("ok: detached inputs for the next refinement step are intended; the encoder trains")
