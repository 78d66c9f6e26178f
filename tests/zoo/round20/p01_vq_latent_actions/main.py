"""
expect: GL001 quantizer.py:18
dynamic: confirm
source: https://github.com/showlab/Olaf-World/issues/8

The report found that the latent-action model of a world-model codebase keeps only the
straight-through output z_q of its vector quantizer and computes the codebook loss as
mse(z_q, z_e.detach()); since the codebook lookup only appears inside the straight-through
.detach(), that term never reaches the codebook, which stays at its initialisation while the
reconstruction loss still falls. This program rebuilds the quantizer (quantizer.py) and a tiny
encode/decode latent-action model on random frame pairs; it asserts the codebook never gets
a gradient and never moves, and that computing the codebook loss on the looked-up codes moves it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from quantizer import CodebookQuantizer

torch.manual_seed(0)
torch.set_num_threads(1)
FRAME, LATENT = 12, 8


class LatentActionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(2 * FRAME, 32), nn.ReLU(), nn.Linear(32, LATENT))
        self.vq = CodebookQuantizer(16, LATENT)
        self.decoder = nn.Sequential(nn.Linear(FRAME + LATENT, 32), nn.ReLU(), nn.Linear(32, FRAME))

    def encode(self, prev, nxt):
        z_e = self.encoder(torch.cat([prev, nxt], dim=-1))
        z_q, _z, _x, idx = self.vq(z_e)
        return z_e, z_q, idx

    def forward(self, prev, nxt, use_lookup=False):
        z_e, z_q, idx = self.encode(prev, nxt)
        recon = self.decoder(torch.cat([prev, z_q], dim=-1))
        rec_loss = F.mse_loss(recon, nxt)
        if use_lookup:   # the fix: compare the looked-up codes themselves
            codebook_loss = F.mse_loss(self.vq.codebook(idx), z_e.detach())
        else:            # as reported: the straight-through output
            codebook_loss = F.mse_loss(z_q, z_e.detach())
        commit_loss = F.mse_loss(z_e, z_q.detach())
        return rec_loss + codebook_loss + 0.25 * commit_loss, rec_loss


def train(use_lookup, steps=60):
    torch.manual_seed(1)
    model = LatentActionModel()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    start = model.vq.codebook.weight.detach().clone()
    data_prev, data_next = torch.randn(64, FRAME), torch.randn(64, FRAME)
    first_rec = last_rec = None
    saw_grad = False
    for step in range(steps):
        loss, rec = model(data_prev, data_next, use_lookup=use_lookup)
        opt.zero_grad()
        loss.backward()
        g = model.vq.codebook.weight.grad
        saw_grad |= g is not None and g.abs().sum().item() > 0
        opt.step()
        first_rec = rec.item() if first_rec is None else first_rec
        last_rec = rec.item()
    moved = (model.vq.codebook.weight.detach() - start).abs().max().item()
    return saw_grad, moved, first_rec, last_rec


saw, moved, r0, r1 = train(use_lookup=False)
print(f"reported: codebook grad seen={saw} max move={moved:.2e} recon {r0:.3f}->{r1:.3f}")
assert not saw, "codebook should receive no gradient"
assert moved == 0.0, "codebook should stay at its initialisation"
assert r1 < r0, "reconstruction still improves, which hides the bug"

saw_f, moved_f, _, _ = train(use_lookup=True)
print(f"fixed:    codebook grad seen={saw_f} max move={moved_f:.2e}")
assert saw_f and moved_f > 1e-3
print("OK")
