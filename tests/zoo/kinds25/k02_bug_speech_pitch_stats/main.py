"""
expect: GL001 model.py:20
dynamic: confirm
source: kinds check 25, kind 1

Speech enhancement on random spectrogram frames. The enhancer also has energy and pitch
heads whose outputs it returns, detached, as a stats tuple next to the enhanced spectrum.
The loop does `enhanced, stats = model(noisy)` and adds auxiliary regression losses on
stats[0] and stats[1]. Those terms are built only from the detached head outputs, so the
energy and pitch heads never receive a gradient and the auxiliary weight changes nothing.
"""
import torch
import torch.nn.functional as F

from model import PitchAwareEnhancer

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, NB = 8, 20, 32
clean = torch.rand(B, T, NB)
noisy = clean + 0.3 * torch.rand(B, T, NB)
clean_energy = clean.pow(2).mean(-1).log()
f0_target = torch.rand(B, T) * 2.0

model = PitchAwareEnhancer(NB)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
aux_w = 0.3


def total_loss(weight):
    enhanced, stats = model(noisy)
    rec = F.l1_loss(enhanced, clean)
    aux = F.mse_loss(stats[0], clean_energy) + F.mse_loss(stats[1], f0_target)
    return rec + weight * aux, aux


for step in range(10):
    loss, _ = total_loss(aux_w)
    opt.zero_grad()
    loss.backward()
    opt.step()

model.zero_grad()
loss, aux = total_loss(aux_w)
loss.backward()
g_w = [None if p.grad is None else p.grad.clone() for p in model.parameters()]
assert aux.item() > 0.0
assert model.energy_head.weight.grad is None, "energy head never trains"
assert model.pitch_head.weight.grad is None, "pitch head never trains"

model.zero_grad()
loss0, _ = total_loss(0.0)
loss0.backward()
g_0 = [None if p.grad is None else p.grad.clone() for p in model.parameters()]
for a, b in zip(g_w, g_0):
    assert (a is None and b is None) or torch.equal(a, b)
print("ok: auxiliary stats terms are dead, value", round(aux.item(), 4))
