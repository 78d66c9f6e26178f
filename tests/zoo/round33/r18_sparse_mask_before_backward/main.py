"""
expect: GL005 masking.py:19
dynamic: confirm
source: https://github.com/TimDettmers/sparse_learning/issues/16

The thread: sparse training keeps pruned weights at zero by multiplying the
weights with the mask, and the maintainer explains this must happen right
after each optimizer update. Here the trainer calls `apply_mask()` after the
forward pass and before `loss.backward()`. The in-place `p.data.mul_(mask)`
rewrites weights that the Linear ops saved for backward without bumping the
version counter, so the gradient flowing to earlier layers is computed with
the masked weights while the loss was computed with the unmasked ones:
silently wrong. The asserts compare against the gradient of the same loss
without the edit.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from masking import Masking, SparseTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3))
x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))

# reference: the gradient of the same loss on the same (still dense) weights
ref_model = copy.deepcopy(model)
F.cross_entropy(ref_model(x), y).backward()
ref_grad = ref_model[0].weight.grad.clone()

masking = Masking(model, density=0.5)
trainer = SparseTrainer(model, masking, lr=0.0)  # lr 0: only look at grads
loss = trainer.step(x, y, F.cross_entropy)

# the loss value belongs to the dense weights...
assert torch.allclose(loss, F.cross_entropy(ref_model(x), y))
# ...but the first layer's gradient was computed through masked weights
diff = (model[0].weight.grad - ref_grad).abs().max().item()
assert diff > 1e-3, diff
# and no error was raised: .data edits are invisible to the version counter
print("ok: mask applied between forward and backward changed grads by", diff)
