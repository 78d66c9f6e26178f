"""expect: GL005 67, GL005 68, GL005 69, GL005 70
dynamic: confirm
source: https://github.com/open-mmlab/mmocr/pull/884

The FPEM_FFM neck of a PANet text detector: two stacked feature-pyramid enhancement modules (FPEM) refine
four pyramid levels, and the feature fusion module (FFM) sums the outputs of all FPEMs level by level. The
first FPEM's outputs are kept as the running sums and later FPEM outputs are added to them with `+=`.
Those first outputs come straight out of ReLU, which saves its result for backward, so the in-place sums
break the graph: training PANet/PSENet raised "one of the variables needed for gradient computation has been
modified by an inplace operation ... ReluBackward0" until the PR replaced `+=` with out-of-place adds. The
asserts show the RuntimeError for the in-place neck and that the out-of-place neck, with identical weights
and outputs, backpropagates into every convolution.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SeparableConv2d(nn.Module):
    def __init__(self, c, stride=1):
        super().__init__()
        self.depthwise = nn.Conv2d(c, c, 3, padding=1, stride=stride, groups=c)
        self.pointwise = nn.Conv2d(c, c, 1)
        self.bn = nn.BatchNorm2d(c)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.pointwise(self.depthwise(x))))


class FPEM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.up = nn.ModuleList(SeparableConv2d(c) for _ in range(3))
        self.down = nn.ModuleList(SeparableConv2d(c, 2) for _ in range(3))

    @staticmethod
    def _upsample_add(x, y):
        return F.interpolate(x, size=y.shape[2:]) + y

    def forward(self, c2, c3, c4, c5):
        c4 = self.up[0](self._upsample_add(c5, c4))
        c3 = self.up[1](self._upsample_add(c4, c3))
        c2 = self.up[2](self._upsample_add(c3, c2))
        c3 = self.down[0](self._upsample_add(c3, c2))
        c4 = self.down[1](self._upsample_add(c4, c3))
        c5 = self.down[2](self._upsample_add(c5, c4))
        return c2, c3, c4, c5


class FPEM_FFM(nn.Module):
    def __init__(self, c=8, repeat=2):
        super().__init__()
        self.fpems = nn.ModuleList(FPEM(c) for _ in range(repeat))

    def forward(self, c2, c3, c4, c5):
        for i, fpem in enumerate(self.fpems):
            c2, c3, c4, c5 = fpem(c2, c3, c4, c5)
            if i == 0:
                c2_ffm, c3_ffm, c4_ffm, c5_ffm = c2, c3, c4, c5
            else:
                c2_ffm += c2
                c3_ffm += c3
                c4_ffm += c4
                c5_ffm += c5
        size = c2_ffm.shape[2:]
        ups = [F.interpolate(c, size=size, mode="bilinear", align_corners=False) for c in (c3_ffm, c4_ffm, c5_ffm)]
        return torch.cat([c2_ffm] + ups, dim=1)


class FPEM_FFM_OutOfPlace(FPEM_FFM):
    def forward(self, c2, c3, c4, c5):
        for i, fpem in enumerate(self.fpems):
            c2, c3, c4, c5 = fpem(c2, c3, c4, c5)
            if i == 0:
                sums = [c2, c3, c4, c5]
            else:
                sums = [s + c for s, c in zip(sums, (c2, c3, c4, c5))]
        size = sums[0].shape[2:]
        ups = [F.interpolate(c, size=size, mode="bilinear", align_corners=False) for c in sums[1:]]
        return torch.cat([sums[0]] + ups, dim=1)


feats = [torch.randn(2, 8, s, s) for s in (16, 8, 4, 2)]
target = torch.rand(2, 32, 16, 16)

neck = FPEM_FFM()
out = neck(*feats)
try:
    F.mse_loss(out, target).backward()
    raise AssertionError("backward unexpectedly succeeded")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e

fixed = FPEM_FFM_OutOfPlace()
fixed.load_state_dict(copy.deepcopy(neck.state_dict()))
torch.manual_seed(1)
neck2 = FPEM_FFM()
neck2.load_state_dict(copy.deepcopy(fixed.state_dict()))
with torch.no_grad():
    same = torch.allclose(neck2(*feats), fixed(*feats), atol=1e-6)
assert same
loss = F.mse_loss(fixed(*feats), target)
loss.backward()
convs = [m for m in fixed.modules() if isinstance(m, nn.Conv2d)]
assert all(m.weight.grad is not None and m.weight.grad.abs().sum() > 0 for m in convs)
print(f"in-place FFM sums: backward raises; out-of-place: {len(convs)} convs get gradients")
