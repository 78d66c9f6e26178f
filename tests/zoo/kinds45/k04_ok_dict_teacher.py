"""
expect: none
dynamic: dismiss
source: kinds check 45, kind 2

Denoising autoencoder with a frozen pretrained critic, all kept in a plain
dict. Only nets["enc"] and nets["dec"] are handed to the optimizer; the
no_grad region computes a feature target from nets["critic"], which no
optimizer holds, and the trained reconstruction is matched to it with grad on.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
nets = {
    "enc": nn.Sequential(nn.Linear(20, 8), nn.ReLU()),
    "dec": nn.Linear(8, 20),
    "critic": nn.Sequential(nn.Linear(20, 16), nn.Tanh()),
}
for p in nets["critic"].parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(
    list(nets["enc"].parameters()) + list(nets["dec"].parameters()), lr=1e-2
)

clean = torch.randn(256, 20)
first_perc = None
for it in range(60):
    noisy = clean + 0.3 * torch.randn_like(clean)
    recon = nets["dec"](nets["enc"](noisy))
    with torch.no_grad():
        target_feat = nets["critic"](clean)
    perceptual = (nets["critic"](recon) - target_feat).pow(2).mean()
    loss = nn.functional.mse_loss(recon, clean) + perceptual
    if it == 0:
        first_perc = perceptual.item()
        enc_w = nets["enc"][0].weight
        # the perceptual term alone reaches the trained encoder
        g = torch.autograd.grad(perceptual, enc_w, retain_graph=True)[0]
        assert g.abs().sum() > 0
    opt.zero_grad()
    loss.backward()
    opt.step()

assert all(p.grad is None for p in nets["critic"].parameters())
assert perceptual.item() < first_perc, (first_perc, perceptual.item())
print(f"perceptual {first_perc:.4f} -> {perceptual.item():.4f}; critic untouched")
