"""
expect: none
dynamic: dismiss
source: https://github.com/nianticlabs/manydepth/issues/17

A ManyDepth-style multi-frame depth network: a shared feature extractor runs on the current frame and
on a lookup frame, a plane-sweep cost volume compares them, a confidence mask is computed from the
detached cost volume, and the masked volume is concatenated with the current features and decoded to
depth. The lookup-frame features are computed under torch.no_grad(), which the maintainers explain is
only to save memory (enabling gradients there made little difference). The shared extractor is still
trained through the current-frame path and through the cost volume, and the in-place masking multiplies
a tensor no backward function saved. The asserts show the shared extractor, the reduction conv and the
decoder all receiving gradients, and the depth loss going down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from encoder import MatchingEncoder


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = MatchingEncoder()
        self.decoder = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, current, lookup, min_depth=0.1, max_depth=10.0):
        disp = torch.sigmoid(self.decoder(self.encoder(current, lookup)))
        return 1.0 / (1.0 / max_depth + (1.0 / min_depth - 1.0 / max_depth) * disp)


torch.manual_seed(0)
torch.set_num_threads(1)
current = torch.randn(2, 3, 16, 24)
lookup = torch.roll(current, shifts=2, dims=3) + 0.05 * torch.randn_like(current)
gt_depth = 1.0 + 4.0 * torch.rand(2, 1, 16, 24)

model = DepthNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
losses = []
for step in range(30):
    opt.zero_grad()
    loss = F.l1_loss(torch.log(model(current, lookup)), torch.log(gt_depth))
    loss.backward()
    if step == 0:
        for part in (model.encoder.layer0, model.encoder.reduce_conv, model.decoder):
            assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in part.parameters())
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("log-depth L1 %.3f -> %.3f" % (losses[0], losses[-1]))
