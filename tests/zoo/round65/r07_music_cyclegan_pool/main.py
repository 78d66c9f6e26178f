"""
expect: GL004 train.py:27
dynamic: confirm
source: https://github.com/Asthestarsfalll/Symbolic-Music-Genre-Transfer-with-CycleGAN-for-pytorch/issues/2

Symbolic music generation: CycleGAN genre transfer on piano-roll bars. The model keeps a
history pool (`Sampler`) of generated bars for the discriminators, but stores the
generator outputs with their autograd history, and every loss is back-propagated with
`retain_graph=True`. The first two retained backwards are legitimate (the two generator
losses share the cycle graph), but once the pool is full `d_A_loss.backward(retain_graph=True)`
runs through a bar produced several iterations earlier: that old graph was kept alive
from step to step and its generator weights have since been updated by
`optimizer_GB2A.step()`, so the call fails with "modified by an inplace operation" (and
until then every pooled graph stays in memory). The asserts show the pooled fakes still
carry grad_fn from earlier steps, catch the error on the default path, and show that a
pool of detached bars trains without error while the cycle loss falls.
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import CycleGAN  # noqa: E402
from train import make_optimizers, train_epoch  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)


def make_bars(n_batches=12, b=4, t=16, p=12):
    """Genre A: sustained chords; genre B: staccato single notes."""
    torch.manual_seed(1)
    batches = []
    for _ in range(n_batches):
        a = torch.zeros(b, 1, t, p)
        bb = torch.zeros(b, 1, t, p)
        for i in range(b):
            root = int(torch.randint(0, p - 5, (1,)))
            a[i, 0, :, [root, root + 2, root + 4]] = 1.0
            bb[i, 0, ::4, root] = 1.0
        batches.append((a, bb, torch.cat([a[: b // 2], bb[: b // 2]])))
    return batches


batches = make_bars()

model = CycleGAN(sample_size=4)
opts = make_optimizers(model)
err = None
try:
    train_epoch(model, opts, batches)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err
pooled = [im for pair in model.sampler.images for im in pair]
assert len(pooled) == 4 * 2 and all(im.grad_fn is not None for im in pooled)

torch.manual_seed(0)
np.random.seed(0)
fixed = CycleGAN(sample_size=4, detach_pool=True)
opts = make_optimizers(fixed)
first = train_epoch(fixed, opts, batches)
for _ in range(2):
    last = train_epoch(fixed, opts, batches)
assert all(im.grad_fn is None for pair in fixed.sampler.images for im in pair)
c0 = sum(h[0] for h in first) / len(first)
c1 = sum(h[0] for h in last) / len(last)
assert c1 < 0.7 * c0, (c0, c1)
print("buggy: %s..." % err[:70])
print("fixed: cycle loss %.3f -> %.3f" % (c0, c1))
