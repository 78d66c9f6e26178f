"""
expect: none
dynamic: dismiss
source: https://github.com/haofeixu/gmflow/issues/18

The issue asks why GMFlow feeds flow.detach() into its feature-flow propagation
(self-attention) step. The detach is on purpose: the matching flow gets its own
loss, and the propagation module learns to refine it without changing it. The
look-alike below does the same. The encoder still trains, through the
matching loss and through the propagation attention, which uses the un-detached
features. The asserts check that every module gets a nonzero gradient. They also
check that the refined loss alone still reaches the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Encoder(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.conv = nn.Conv2d(3, c, 3, padding=1)

    def forward(self, x):
        return F.relu(self.conv(x))


def softmax_matching(f0, f1):
    b, c, h, w = f0.shape
    corr = torch.einsum("bchw,bcuv->bhwuv", f0, f1).reshape(b, h * w, h * w) / c ** 0.5
    prob = corr.softmax(-1)
    ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    grid = torch.stack([xs, ys], 0).float().reshape(2, -1).t()  # [HW, 2]
    corresp = prob @ grid  # [B, HW, 2]
    flow = (corresp - grid).permute(0, 2, 1).reshape(b, 2, h, w)
    return flow


class FlowPropagation(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.q = nn.Conv2d(c, c, 1)
        self.k = nn.Conv2d(c, c, 1)

    def forward(self, feat, flow):
        b, c, h, w = feat.shape
        q = self.q(feat).flatten(2).transpose(1, 2)
        k = self.k(feat).flatten(2)
        attn = torch.softmax(q @ k / c ** 0.5, -1)
        v = flow.flatten(2).transpose(1, 2)
        return (attn @ v).transpose(1, 2).reshape(b, 2, h, w)


class TinyFlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Encoder()
        self.prop = FlowPropagation()

    def forward(self, img0, img1):
        f0, f1 = self.enc(img0), self.enc(img1)
        flow_match = softmax_matching(f0, f1)
        # stop-gradient on purpose: the refiner must not rewrite the matching flow
        flow_prop = self.prop(f0, flow_match.detach())
        return [flow_match, flow_prop]


def sequence_loss(preds, gt, gamma=0.8):
    n = len(preds)
    return sum(gamma ** (n - i - 1) * (p - gt).abs().mean() for i, p in enumerate(preds))


model = TinyFlowNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
img0, img1 = torch.rand(2, 3, 6, 6), torch.rand(2, 3, 6, 6)
gt = torch.randn(2, 2, 6, 6)
losses = []
for _ in range(25):
    opt.zero_grad()
    preds = model(img0, img1)
    loss = sequence_loss(preds, gt)
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]

# the refined-flow loss alone still reaches the encoder through the attention weights
model.zero_grad()
preds = model(img0, img1)
(preds[1] - gt).abs().mean().backward()
assert model.enc.conv.weight.grad.abs().sum() > 0
assert model.prop.q.weight.grad.abs().sum() > 0
print("ok: detached propagation input still trains all modules")
