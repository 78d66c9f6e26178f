"""
expect: GL005 activations.py:10
dynamic: confirm
source: https://github.com/rwightman/gen-efficientnet-pytorch/issues/16

In gen-efficientnet-pytorch an in-place Mish, x.mul_(F.softplus(x).tanh()), was left as
dead code because it "triggered an inplace gradient error (during training)"; the same
in-place Mish had been used in a YOLOv3 model. softplus saves its input x for backward,
and the mul_ then overwrites that x. This program builds a small conv-BN-Mish detector
backbone. The asserts show inference under no_grad runs fine (so the layer looks
harmless), a training step raises the in-place error, and the out-of-place Mish trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from activations import MishOutOfPlace, conv_bn_act

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyBackbone(nn.Module):
    def __init__(self, act_kwargs=None, n_out=5):
        super().__init__()
        kw = act_kwargs or {}
        self.features = nn.Sequential(conv_bn_act(3, 8, **kw), nn.MaxPool2d(2), conv_bn_act(8, 16, **kw))
        self.head = nn.Conv2d(16, n_out, 1)                 # objectness + 4 box offsets per cell

    def forward(self, x):
        return self.head(self.features(x))


imgs = torch.randn(4, 3, 16, 16)
targets = torch.randn(4, 5, 8, 8)

model = TinyBackbone()
model.eval()
with torch.no_grad():
    assert model(imgs).shape == (4, 5, 8, 8)               # inference / detect.py works

model.train()
loss = F.mse_loss(model(imgs), targets)
try:
    loss.backward()
    raise AssertionError("expected the in-place Mish to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

fixed = TinyBackbone(act_kwargs={"act_cls": MishOutOfPlace})
fixed.load_state_dict(model.state_dict())
opt = torch.optim.SGD(fixed.parameters(), lr=0.05)
losses = []
for _ in range(10):
    opt.zero_grad()
    loss = F.mse_loss(fixed(imgs), targets)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], "out-of-place Mish trains"
print("ok: in-place Mish fails in training; out-of-place loss", round(losses[0], 3), "->", round(losses[-1], 3))
