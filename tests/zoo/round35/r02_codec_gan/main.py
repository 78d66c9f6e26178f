"""
expect: GL005 gan_step.py:49
dynamic: confirm
source: https://github.com/wesbz/SoundStream/issues/7

SoundStream (neural audio codec) training report: "one of the variables needed
for gradient computation has been modified by an inplace operation". The trainer
in gan_step.py backpropagates the generator loss with retain_graph=True, steps
the generator optimizer (an in-place update of the codec weights the graph
saved), then backpropagates the discriminator loss through the same, non-detached
fake waveform. The asserts show the version-counter error, and that the
discriminator-first order with a detached fake trains both nets.
"""
import torch

from gan_step import CodecTrainer, DiscFirstTrainer, TinyCodec, WaveDiscriminator

torch.manual_seed(0)
torch.set_num_threads(1)

wav = torch.sin(torch.linspace(0, 40, 256)).view(1, 1, -1).repeat(4, 1, 1)
wav = wav + 0.05 * torch.randn_like(wav)

codec, disc = TinyCodec(), WaveDiscriminator()
trainer = CodecTrainer(codec, disc)
try:
    trainer.step(wav)
    raised = None
except RuntimeError as err:
    raised = str(err)
print("generator-first step:", raised[:90] if raised else "no error")
assert raised is not None and "modified by an inplace operation" in raised

torch.manual_seed(0)
codec2, disc2 = TinyCodec(), WaveDiscriminator()
w_g, w_d = codec2.dec.weight.clone(), disc2.conv.weight.clone()
fixed = DiscFirstTrainer(codec2, disc2)
losses = [fixed.step(wav) for _ in range(5)]
assert not torch.equal(w_g, codec2.dec.weight)
assert not torch.equal(w_d, disc2.conv.weight)
assert losses[-1][0] < losses[0][0]
