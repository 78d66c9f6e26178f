"""
expect: none
dynamic: dismiss
source: https://github.com/kvizmd/monoblindspot/blob/HEAD/bse/losses/functions/depth_smooth.py

The monodepth-style edge-aware smoothness loss in this public file scales the
disparity gradients in place (grad_disp_x *= exp(-grad_img_x)). It looks like
an in-place edit inside a graph, but it is fine: abs() saves its input, not
its output, so nothing that backward needs is overwritten. The asserts show
the loss and the depth network's gradients match an out-of-place version
exactly, and a few training steps of a tiny depth net lower the loss.
"""
import torch
import torch.nn as nn

from losses import SmoothnessLoss, smoothness_out_of_place

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyDispNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ELU(),
                                 nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, img):
        return torch.sigmoid(self.net(img))


img = torch.rand(2, 3, 12, 16)
net = TinyDispNet()
smooth = SmoothnessLoss()

loss_a = smooth(net(img), img)
g_a = torch.autograd.grad(loss_a, list(net.parameters()))
loss_b = smoothness_out_of_place(net(img), img)
g_b = torch.autograd.grad(loss_b, list(net.parameters()))
assert torch.allclose(loss_a, loss_b)
assert all(torch.allclose(x, y, atol=1e-7) for x, y in zip(g_a, g_b))
assert all(x.abs().sum() > 0 for x in g_a)

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
losses = []
for step in range(20):
    loss = smooth(net(img), img)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("ok", losses[0], losses[-1])
