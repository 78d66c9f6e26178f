"""expect: GL005 20
dynamic: error
source: https://github.com/aladdinpersson/Machine-Learning-Collection/issues/87

Two files, in the shape of the YOLO loss in the linked issue: `helpers.SizeHead.forward` ends in `torch.exp`, and this file scales the returned width/height by the anchor sizes in place with an index assignment (`wh[:, :, 0] = ...`). exp saves its output for backward, so backward fails with "output 0 of ExpBackward0 ... modified by an inplace operation". The expected finding is in main.py at line 20.
"""
import torch

from helpers import SizeHead

torch.manual_seed(0)
head = SizeHead(16)
opt = torch.optim.SGD(head.parameters(), lr=0.01)
anchor_w = torch.tensor([1.0, 2.0, 4.0]).view(1, 3, 1, 1)
anchor_h = torch.tensor([1.5, 3.0, 5.0]).view(1, 3, 1, 1)

feat = torch.randn(2, 16, 4, 4)
target_wh = torch.rand(2, 3, 2, 4, 4) * 4
wh = head(feat)
wh[:, :, 0] = wh[:, :, 0] * anchor_w
wh[:, :, 1] = wh[:, :, 1] * anchor_h
loss = (wh - target_wh).pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("head grad", head.conv.weight.grad.norm().item())
