"""
expect: GL005 net_canny.py:39
expect: GL005 net_canny.py:40
dynamic: confirm
source: https://github.com/DCurro/CannyEdgePytorch/issues/5

The report: using the PyTorch Canny net as a differentiable part of a training objective fails
in backward because the net "has many in-place operations"; the reporter rewrote the first lines
of forward() out of place. This folder rebuilds it: net_canny.py has the fixed-filter Canny front
end whose forward() sums the per-channel gradient magnitudes with `grad_mag += ...`, and main.py
trains a small enhancement network with an edge-map loss through it. Both `+=` lines edit the
output of torch.sqrt, which sqrt saved for its backward, so the asserts catch the "modified by
an inplace operation" RuntimeError; an out-of-place sum trains the network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from net_canny import CannyNet


class OutOfPlaceCanny(CannyNet):
    def forward(self, img):
        mags = []
        for c in range(3):
            gx, gy = self.channel_gradients(img[:, c:c + 1])
            mags.append(torch.sqrt(gx ** 2 + gy ** 2 + 1e-8))
        return mags[0] + mags[1] + mags[2]


def train(edge_net, steps=3):
    torch.manual_seed(0)
    enhancer = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
    opt = torch.optim.Adam(enhancer.parameters(), lr=1e-3)
    noisy, clean = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    target_edges = edge_net(clean)
    w0 = enhancer[0].weight.detach().clone()
    for _ in range(steps):
        out = enhancer(noisy)
        loss = F.l1_loss(out, clean) + 0.1 * F.l1_loss(edge_net(out), target_edges)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return not torch.equal(w0, enhancer[0].weight)


try:
    train(CannyNet())
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace" in str(err), err
assert train(OutOfPlaceCanny())
print("ok: grad_mag += ... edits sqrt's saved output and breaks backward")
