"""
expect: GL005 synth_trainer.py:28
dynamic: confirm
source: https://github.com/taozh2017/HiNet/issues/24

HiNet synthesises a missing MR contrast (e.g. FLAIR) from two others with a
fusion generator and a least-squares discriminator.  Its training loop calls
loss_G.backward(retain_graph=True), then optimizer_G.step(), and then trains
the discriminator on D(x_fake) where x_fake is the generator output of the same
forward pass, not detached.  The discriminator loss therefore back-propagates
into the generator graph, whose saved weights were just rewritten in place by
Adam, and on any torch >= 1.5 the second backward dies with "one of the
variables needed for gradient computation has been modified by an inplace
operation" (the issue, and the x_fake.detach() fix proposed in the thread).
Here the trainer class lives in synth_trainer.py and the in-place edit is the
generator's optimizer step between the two backward calls.  The asserts catch
that RuntimeError in the original wiring, and show that with the fake image
detached for the critic step both networks train.
"""
import torch

from nets import FusionGenerator, PatchCritic
from synth_trainer import SynthTrainer

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(n=4, size=16):
    t1 = torch.rand(n, 1, size, size) * 2 - 1
    t2 = torch.rand(n, 1, size, size) * 2 - 1
    flair = torch.tanh(0.6 * t1 - 0.4 * t2)
    return t1, t2, flair


def snapshot(module):
    return [p.detach().clone() for p in module.parameters()]


def changed(before, module):
    return any(not torch.equal(b, p) for b, p in zip(before, module.parameters()))


# original wiring: critic trained on the non-detached synthesized image
gen, crit = FusionGenerator(), PatchCritic()
trainer = SynthTrainer(gen, crit, detach_fake=False)
try:
    trainer.step(*make_batch())
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

# fixed wiring: detach the fake image for the critic update
gen, crit = FusionGenerator(), PatchCritic()
trainer = SynthTrainer(gen, crit, detach_fake=True)
g0, d0 = snapshot(gen), snapshot(crit)
for _ in range(5):
    trainer.step(*make_batch())
assert changed(g0, gen) and changed(d0, crit)
