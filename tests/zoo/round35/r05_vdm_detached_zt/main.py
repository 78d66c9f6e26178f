"""
expect: none
dynamic: dismiss
source: https://github.com/DavidRuhe/simple-variational-diffusion-models/issues/3

Variational diffusion model with a learned noise schedule. A reader asked why
the noisy sample z_t is detached in the diffusion loss and whether the SNR
network is still trained. The author: the detach is deliberate (training was
unstable without it) and the schedule still learns through the normalised
log-SNR fed to the denoiser and through the SNR weighting. vdm.py does the same.
The asserts check that both the denoiser and the SNR parameters get non-zero
gradients, that the schedule parameters move, and that the loss goes down.
"""
import torch

from vdm import VariationalDiffusion

torch.manual_seed(0)
torch.set_num_threads(1)

data = torch.randn(512, 2) * torch.tensor([0.5, 0.1]) + torch.tensor([1.0, -1.0])
model = VariationalDiffusion(dim=2)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
snr_before = [p.detach().clone() for p in model.snr.parameters()]

losses = []
for step in range(300):
    batch = data[torch.randint(0, 512, (128,))]
    opt.zero_grad()
    loss = model.diffusion_loss(batch)
    loss.backward()
    if step == 0:
        snr_grads = [p.grad.abs().item() for p in model.snr.parameters()]
        den_grads = [p.grad.abs().sum().item() for p in model.denoiser.parameters()]
    opt.step()
    losses.append(loss.item())

print("snr grads", snr_grads, "loss", sum(losses[:20]) / 20, "->", sum(losses[-20:]) / 20)
assert all(g > 0 for g in snr_grads)             # schedule is trained despite the detach
assert all(g > 0 for g in den_grads)
assert any(not torch.equal(a, b) for a, b in zip(snr_before, model.snr.parameters()))
assert sum(losses[-20:]) < sum(losses[:20])
