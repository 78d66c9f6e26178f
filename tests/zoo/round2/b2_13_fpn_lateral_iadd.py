"""expect: GL005 25
dynamic: confirm
source: https://github.com/lyongo/NWPU-MOC/issues/4

A feature-pyramid head builds lateral maps with conv + ReLU and then adds the
upsampled coarser map into the finer one with `laterals[i - 1] += ...`. ReLU
saved its output for backward, so the in-place add makes backward fail with
"... output 0 of ReluBackward0, is at version 1". The fix in the thread was to
replace `+=` with a plain assignment of the sum.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FPNHead(nn.Module):
    def __init__(self, in_chs=(4, 8, 16), out_ch=6):
        super().__init__()
        self.lateral = nn.ModuleList(nn.Conv2d(c, out_ch, 1) for c in in_chs)

    def forward(self, feats):
        laterals = [F.relu(conv(f)) for conv, f in zip(self.lateral, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode="nearest")
        return laterals


if __name__ == "__main__":
    torch.manual_seed(0)
    head = FPNHead()
    feats = [torch.randn(1, 4, 16, 16), torch.randn(1, 8, 8, 8), torch.randn(1, 16, 4, 4)]
    outs = head(feats)
    try:
        sum(o.mean() for o in outs).backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
    else:
        raise AssertionError("expected the in-place error")
    print("ok: in-place lateral add breaks backward")
