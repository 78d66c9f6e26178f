"""
expect: GL005 gan_trainer.py:49
dynamic: confirm
source: https://github.com/coqui-ai/Trainer/pull/76

A GAN vocoder trainer with one optimizer per network runs train_step for the
generator and then for the discriminator on the same batch, and caches the
generator output from the first step. The PR discussion notes the steps must
be independent ("we can't cache it"): the generator step calls opt_g.step(),
which edits the generator weights in place, and the discriminator loss then
backpropagates through the cached output's graph, which saved those weights.
The asserts show the discriminator step fails with the version-counter error
and that detaching the cached output (as the fix does) trains both nets.
"""
import torch

from gan_trainer import Generator, Discriminator, VocoderGANTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

mel = torch.randn(4, 8, 16)
wav = torch.tanh(torch.randn(4, 1, 64))
batch = (mel, wav)

gen, disc = Generator(), Discriminator()
buggy = VocoderGANTrainer(gen, disc)
buggy.train_step(batch, 0)
try:
    buggy.train_step(batch, 1)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

torch.manual_seed(0)
gen2, disc2 = Generator(), Discriminator()
fixed = VocoderGANTrainer(gen2, disc2, detach_cached=True)
d_before = disc2.net[0].weight.detach().clone()
g_before = gen2.pre.weight.detach().clone()
l1_first = None
for it in range(40):
    fixed.train_step(batch, 0)
    fixed.train_step(batch, 1)
    with torch.no_grad():
        l1 = torch.nn.functional.l1_loss(gen2(mel), wav).item()
    l1_first = l1 if l1_first is None else l1_first
assert not torch.equal(disc2.net[0].weight, d_before)
assert not torch.equal(gen2.pre.weight, g_before)
assert l1 < l1_first
print("ok", l1_first, l1)
