"""
expect: none
dynamic: dismiss
source: https://github.com/daniel03c1/masked_wavelet_nerf/issues/10

Learnable binary masks on a feature grid (masked wavelet NeRF) with a
straight-through estimator:
`plane = (plane * (mask >= 0.5) - plane * mask).detach() + plane * mask`.
The detach is deliberate: the forward value is the hard-masked grid, while the
backward pass sees only `plane * mask`, so both the grid and the mask logits
receive gradients. Asserted: the forward equals the hard mask, the gradients
are those of the soft product, and a sparsity-regularised fit moves both the
grid and the mask logits.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MaskedGrid(nn.Module):
    def __init__(self, n=16):
        super().__init__()
        self.plane = nn.Parameter(torch.randn(n))
        self.mask_logit = nn.Parameter(torch.randn(n))

    def forward(self):
        mask = torch.sigmoid(self.mask_logit)
        plane = self.plane
        return (plane * (mask >= 0.5) - plane * mask).detach() + plane * mask


grid = MaskedGrid()
target = torch.randn(16)
out = grid()
mask = torch.sigmoid(grid.mask_logit)
assert torch.allclose(out, grid.plane * (mask >= 0.5))

loss = ((out - target) ** 2).sum() + 0.1 * mask.sum()
g_plane, g_mask = torch.autograd.grad(loss, [grid.plane, grid.mask_logit])
with torch.no_grad():  # expected STE gradients: d(out) is treated as d(plane * mask)
    d_out = 2 * (out - target)
    r_plane = d_out * mask
    r_mask = (d_out * grid.plane + 0.1) * mask * (1 - mask)
assert torch.allclose(g_plane, r_plane) and torch.allclose(g_mask, r_mask)
assert g_plane.abs().sum() > 0 and g_mask.abs().sum() > 0

opt = torch.optim.Adam(grid.parameters(), lr=0.05)
start = [p.detach().clone() for p in grid.parameters()]
for _ in range(50):
    opt.zero_grad()
    out = grid()
    loss = ((out - target) ** 2).mean() + 0.01 * torch.sigmoid(grid.mask_logit).mean()
    loss.backward()
    opt.step()
assert all(not torch.equal(a, b) for a, b in zip(start, grid.parameters()))
print("OK: straight-through detach trains both grid and mask")
