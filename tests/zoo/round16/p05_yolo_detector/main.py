"""
expect: none
dynamic: dismiss
source: https://github.com/eriklindernoren/PyTorch-YOLOv3/issues/211

A user asked why the YOLO layer builds pred_boxes from x.data, w.data etc., since .data cuts
gradient; the answer was that pred_boxes only feed the inference output and build_targets
(ground-truth assignment and IoU statistics), never the loss that is backpropagated. This
program rebuilds that split in a separate layer module: the .data values fill pred_boxes, while
the loss uses the live px/pw/conf tensors. The asserts show every backbone and head parameter
gets a nonzero gradient and the loss falls over a few steps.
"""
import torch
import torch.nn as nn

from yolo_layer import YoloLayer1D

torch.manual_seed(0)


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv1d(1, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv1d(8, 3, 1)
        self.yolo = YoloLayer1D()

    def forward(self, signal, targets=None):
        return self.yolo(self.head(self.backbone(signal)), targets)


model = TinyDetector()
signal = torch.randn(4, 1, 6)
targets = torch.tensor([[1.3, 2.0], [4.6, 3.0], [0.2, 1.5], [5.5, 2.5]])
opt = torch.optim.Adam(model.parameters(), lr=5e-2)

losses = []
for step in range(30):
    opt.zero_grad()
    output, loss = model(signal, targets)
    loss.backward()
    if step == 0:
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.7 * losses[0], losses
print("ok: .data only feeds target building; loss %.3f -> %.3f" % (losses[0], losses[-1]))
