"""
expect: none
dynamic: dismiss
source: https://github.com/nirbhay-design/ODE-SSL/blob/2e80b497186b8004a12c61ea460e9eedd935dace/src/ssl/byol.py

BYOL with an energy-based feature regularizer. The target network is run under torch.no_grad() and
only follows the online network by an EMA written through .data; the online features are pulled
towards Langevin samples that are computed from z.clone().detach() with requires_grad_ switched on
and re-detached every step, and then detached again as a regression target; the energy net is fit
by denoising score matching on feat.detach(), with requires_grad_ on the noisy copy so that the
score can be differentiated with create_graph=True. Every cut here is intended: the asserts check
that the online encoder, projector and predictor get gradients and move, that the regularizer term
alone reaches the encoder, that the target never holds a gradient and equals the EMA of its old
value and the new online weights exactly, and that the DSM loss trains the energy net.
"""
import copy

import torch
import torch.nn.functional as F

from byol_energy import EMA, EnergyNet, Online, byol_loss

torch.manual_seed(0)
torch.set_num_threads(1)

online = Online()
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
energy = EnergyNet()
opt = torch.optim.Adam(online.parameters(), lr=1e-3)
e_opt = torch.optim.Adam(energy.parameters(), lr=1e-2)
ema = EMA(0.9)

base = torch.randn(256, 20)


def views(n=64):
    idx = torch.randint(0, base.shape[0], (n,))
    x = base[idx]
    return x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)


# the regularizer term on its own reaches the encoder
x1, _ = views()
feat = online(x1)["features"]
reg = F.mse_loss(feat, energy.langevin(feat).detach())
enc_grads = torch.autograd.grad(reg, list(online.encoder.parameters()))
assert all(g.abs().sum() > 0 for g in enc_grads)

start = copy.deepcopy(online)
e_start = copy.deepcopy(energy)
dsm_hist = []
for step in range(60):
    x1, x2 = views()
    out = online(torch.cat([x1, x2]))
    with torch.no_grad():
        tgt = target(torch.cat([x1, x2]))["proj"]
    p1, p2 = out["pred"].chunk(2)
    t1, t2 = tgt.chunk(2)
    f1, f2 = out["features"].chunk(2)
    s1, s2 = energy.langevin(f1), energy.langevin(f2)
    loss = byol_loss(p1, t2.detach()) + byol_loss(p2, t1.detach()) \
        + F.mse_loss(f1, s1.detach()) + F.mse_loss(f2, s2.detach())
    opt.zero_grad()
    loss.backward()
    for name in ("encoder", "proj", "pred"):
        assert all(p.grad is not None and p.grad.abs().sum() > 0
                   for p in getattr(online, name).parameters()), name
    opt.step()

    old_target = [t.clone() for t in target.parameters()]
    ema(online, target)
    online_ep = list(online.encoder.parameters()) + list(online.proj.parameters())
    target_ep = list(target.encoder.parameters()) + list(target.proj.parameters())
    old_ep = old_target[:len(target_ep)]
    for t, o, old in zip(target_ep, online_ep, old_ep):
        assert t.grad is None
        assert torch.allclose(t, 0.9 * old + 0.1 * o)

    e_loss = 0.5 * (energy.dsm_loss(f1.detach()) + energy.dsm_loss(f2.detach()))
    e_opt.zero_grad()
    e_loss.backward()
    # the output bias is a constant shift of the energy, so the score never sees it
    assert all(p.grad is not None and p.grad.abs().sum() > 0
               for n, p in energy.named_parameters() if n != "net.3.bias")
    e_opt.step()
    dsm_hist.append(e_loss.item())

for p, q in zip(online.parameters(), start.parameters()):
    assert not torch.equal(p, q)
assert any(not torch.equal(p, q) for p, q in zip(energy.parameters(), e_start.parameters()))
first, last = sum(dsm_hist[:10]) / 10, sum(dsm_hist[-10:]) / 10
print(f"BYOL+energy: final loss {loss.item():.3f}, DSM {first:.3f} -> {last:.3f}")
assert last < first
