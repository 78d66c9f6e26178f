"""expect: GL005 33
dynamic: confirm
source: https://github.com/toandaominh1997/EfficientDet.Pytorch/issues/161

EfficientDet's BiFPN fuses feature levels with learnable, fast-normalised
weights: w = relu(w_raw); w = w / (sum(w) + eps). This implementation wrote
the normalisation in place, `w1 /= torch.sum(w1, dim=0) + self.eps`. ReLU
saves its output for the backward pass, so dividing that very tensor in place
makes loss.backward() fail with "modified by an inplace operation ... output
0 of ReluBackward0". The reporter fixed it with the out-of-place
`w1 = w1 / (torch.sum(w1, dim=0) + self.eps)`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BiFPNModule(nn.Module):
    def __init__(self, channels, levels, init=0.5, eps=1e-4):
        super().__init__()
        self.levels, self.eps = levels, eps
        self.w1 = nn.Parameter(torch.full((2, levels), init))
        self.relu1 = nn.ReLU()
        self.w2 = nn.Parameter(torch.full((3, levels - 2), init))
        self.relu2 = nn.ReLU()
        self.td_convs = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1)
                                      for _ in range(levels - 1))
        self.bu_convs = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1)
                                      for _ in range(levels - 1))

    def forward(self, inputs):
        w1 = self.relu1(self.w1)
        w1 /= torch.sum(w1, dim=0) + self.eps
        w2 = self.relu2(self.w2)
        w2 = w2 / (torch.sum(w2, dim=0) + self.eps)
        td = list(inputs)
        for i in range(self.levels - 1, 0, -1):
            up = F.interpolate(td[i], scale_factor=2, mode="nearest")
            td[i - 1] = self.td_convs[i - 1](w1[0, i - 1] * td[i - 1] + w1[1, i - 1] * up)
        out = list(td)
        for i in range(0, self.levels - 2):
            down = F.max_pool2d(out[i], kernel_size=2)
            out[i + 1] = self.bu_convs[i](w2[0, i] * td[i + 1] + w2[1, i] * down
                                          + w2[2, i] * inputs[i + 1])
        last = self.levels - 1
        out[last] = self.bu_convs[last - 1](
            w1[0, last] * td[last] + w1[1, last] * F.max_pool2d(out[last - 1], 2))
        return out


def detection_step(neck, head, pyramid, optimizer):
    optimizer.zero_grad()
    feats = neck(pyramid)
    loss = sum(head(f).pow(2).mean() for f in feats)
    loss.backward()
    optimizer.step()


torch.manual_seed(0)
pyramid = [torch.randn(2, 8, 32 // 2 ** k, 32 // 2 ** k) for k in range(4)]
neck = BiFPNModule(channels=8, levels=4)
head = nn.Conv2d(8, 4, 1)
opt = torch.optim.SGD(list(neck.parameters()) + list(head.parameters()), lr=1e-2)

raised = False
try:
    detection_step(neck, head, pyramid, opt)
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised
print("OK")
