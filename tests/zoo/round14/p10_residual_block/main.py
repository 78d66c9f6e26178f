"""
expect: GL005 blocks.py:15
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/15428

The reporter's pre-activation block failed in backward with the in-place modification error
only when the shortcut branch was computed before the residual branch; the answer was that
the residual branch's first (in-place) ReLU rewrites x, which the shortcut convolution had
already saved. This program rebuilds that block in blocks.py: the 1x1 shortcut conv runs on
x, then F.relu(x, inplace=True) bumps x's version. The asserts catch the RuntimeError
mentioning "inplace" during backward, and check the same network with an out-of-place ReLU
trains (stem and shortcut weights get gradients).
"""
import torch
import torch.nn.functional as F
from blocks import Net, ShortcutBlock, ShortcutBlockFixed

torch.manual_seed(0)
x = torch.randn(4, 3, 8, 8)
y = torch.randint(0, 4, (4,))

net = Net(ShortcutBlock)
loss = F.cross_entropy(net(x), y)
raised = False
try:
    loss.backward()
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised

torch.manual_seed(0)
fixed = Net(ShortcutBlockFixed)
F.cross_entropy(fixed(x), y).backward()
assert fixed.stem.weight.grad is not None and fixed.stem.weight.grad.abs().sum() > 0
assert fixed.block.shortcut.weight.grad.abs().sum() > 0
print("ok: in-place ReLU on the saved block input breaks backward")
