"""
expect: GL005 29
dynamic: confirm
source: https://github.com/NVIDIA-AI-IOT/torch2trt/issues/480

The torch2trt report shows a head that computes y = torch.sigmoid(x) and then writes
y[:, 0:2] = torch.sigmoid(y[:, 0:2]) in place (a YOLO-style decode of the xy offsets); the
converter silently skipped the slice write. Under autograd the same write is a problem in
training: sigmoid saves its output for backward, and the slice assignment bumps that output's
version. This program trains such a detection head; the assert catches the RuntimeError
"modified by an inplace operation" from backward, and the out-of-place decode trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DecodeHead(nn.Module):
    def __init__(self, d_in=12, n_out=6, fused=True):
        super().__init__()
        self.pred = nn.Linear(d_in, n_out)
        self.fused = fused

    def forward(self, x):
        y = torch.sigmoid(self.pred(x))
        if self.fused:
            y[:, 0:2] = torch.sigmoid(y[:, 0:2])
            return y
        return torch.cat([torch.sigmoid(y[:, 0:2]), y[:, 2:]], dim=1)


x = torch.randn(8, 12)
target = torch.rand(8, 6)

head = DecodeHead()
out = head(x)
try:
    F.mse_loss(out, target).backward()
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "inplace" in msg, msg

head2 = DecodeHead(fused=False)
w0 = head2.pred.weight.detach().clone()
opt = torch.optim.SGD(head2.parameters(), lr=0.5)
F.mse_loss(head2(x), target).backward()
opt.step()
assert not torch.equal(w0, head2.pred.weight)
print("ok: in-place slice write on a saved sigmoid output breaks backward")
