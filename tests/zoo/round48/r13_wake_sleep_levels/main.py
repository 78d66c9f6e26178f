"""
expect: GL005 wake_sleep.py:24
dynamic: confirm
source: https://github.com/yataobian/mini-ebm/blob/c5136577589af1ce4c1cff3cd604534a756e9f25/advanced/wake_sleep_variants.py

Wake phase of a hierarchical wake-sleep energy-based model: each level has its own energy network
and Adam optimizer; the level loss is backpropagated with retain_graph=True, the optimizer steps,
and only then the same retained graph is differentiated again (energy gradient w.r.t. the level
input) to build the bottom-up message for the next level. optimizer.step() rewrites the weights
in place, but the linear layers saved those weights for backward, so the second differentiation
through the old graph is refused with "modified by an inplace operation". The inputs require grad
here (the trainer marks them for score computations), and the message is taken from the retained
level loss; in the public code the energy sum is formed inside a no_grad block, which fails even
earlier. The asserts catch the in-place RuntimeError and show that taking the message before the
step trains every level.
"""
import torch

from wake_sleep import FixedWakeSleepEBM, HierarchicalWakeSleepEBM

torch.manual_seed(0)
torch.set_num_threads(1)

data = torch.randn(64, 6).requires_grad_(True)

model = HierarchicalWakeSleepEBM(dims=[6, 6, 6])
try:
    model.wake_phase(data)
    raise AssertionError("expected the in-place version error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("wake phase as written raised the expected error:", str(err).split(":")[0])

fixed = FixedWakeSleepEBM(dims=[6, 6, 6])
before = [[p.detach().clone() for p in n.parameters()] for n in fixed.nets]
total = fixed.wake_phase(data)
for level, net in enumerate(fixed.nets):
    moved = any(not torch.equal(p, b) for p, b in zip(net.parameters(), before[level]))
    assert moved, f"level {level} did not update"
print(f"fixed wake phase total energy {total:.4f}; all {len(fixed.nets)} levels updated")
