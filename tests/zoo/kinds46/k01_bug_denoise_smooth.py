"""
expect: GL001 24
dynamic: confirm
source: kinds check 46, kind 1

A 1-D denoising autoencoder for sensor traces adds a regulariser
0.05 * (sparsity + smoothness) to the reconstruction loss. The smoothness
term is meant to make the decoder output smooth, but it is computed from
the detached reconstruction, so it contributes no gradient to the model.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 32))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
clean = torch.sin(torch.linspace(0, 6.28, 32)).repeat(64, 1)
noisy = clean + 0.3 * torch.randn_like(clean)

for step in range(5):
    recon = net(noisy)
    main = ((recon - clean) ** 2).mean()
    sparsity = net[0](noisy).abs().mean()
    frozen = recon.detach()
    smoothness = (frozen[:, 1:] - frozen[:, :-1]).pow(2).mean()
    loss = main + 0.05 * (sparsity + smoothness)
    opt.zero_grad()
    loss.backward()
    opt.step()

# the smoothness term carries no gradient to any parameter
assert not smoothness.requires_grad
# the intended (uncut) term does train the decoder
recon = net(noisy)
smooth_ok = (recon[:, 1:] - recon[:, :-1]).pow(2).mean()
g = torch.autograd.grad(smooth_ok, net[2].weight)[0]
assert g.abs().sum() > 0
print("ok: smoothness term trains nothing when cut")
