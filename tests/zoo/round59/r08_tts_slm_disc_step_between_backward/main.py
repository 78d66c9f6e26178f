"""
expect: GL005 main.py:51
dynamic: confirm
source: https://github.com/yl4579/StyleTTS2/pull/15

StyleTTS2's second-stage training runs SLM adversarial training: one call
returns the discriminator loss d_loss_slm (on detached generated audio) and the
generator loss loss_gen_lm (on the generated audio, through the same WavLM
discriminator head "wd"). The script first did d_loss_slm.backward() and
optimizer.step('wd'), and only then loss_gen_lm.backward(). The step rewrites
the discriminator weights in place, but the generator loss's graph saved those
weights to back-propagate into the generated audio, so the second backward
fails with "one of the variables needed for gradient computation has been
modified by an inplace operation" on recent PyTorch (older versions silently
used the updated weights). PR #15 ("fix the two backward issues") moved the
generator backward in front of the discriminator update. This program runs
both orders on a toy decoder: the original order raises the error (asserted),
the reordered one trains the decoder against the discriminator and updates the
discriminator (asserted).
"""
import torch
import torch.nn as nn

from slmadv import FrozenSLM, SLMDiscriminator, SLMAdversarialLoss

torch.manual_seed(0)
torch.set_num_threads(1)

N_SAMPLES = 64


def build():
    torch.manual_seed(0)
    decoder = nn.Sequential(nn.Linear(10, 48), nn.Tanh(), nn.Linear(48, N_SAMPLES))
    wd = SLMDiscriminator()
    slm_loss = SLMAdversarialLoss(FrozenSLM(N_SAMPLES), wd)
    opt_gen = torch.optim.Adam(decoder.parameters(), lr=1e-3)
    opt_wd = torch.optim.Adam(wd.parameters(), lr=1e-3)
    return decoder, wd, slm_loss, opt_gen, opt_wd


style = torch.randn(16, 10)
real_wav = torch.sin(torch.linspace(0, 6.28, N_SAMPLES)).repeat(16, 1)


def slm_step_original(decoder, slm_loss, opt_gen, opt_wd):
    y_pred = decoder(style)
    d_loss_slm, loss_gen_lm = slm_loss(real_wav, y_pred)
    opt_wd.zero_grad()
    d_loss_slm.backward()
    opt_wd.step()
    opt_gen.zero_grad()
    loss_gen_lm.backward()
    opt_gen.step()


def slm_step_reordered(decoder, slm_loss, opt_gen, opt_wd):
    y_pred = decoder(style)
    d_loss_slm, loss_gen_lm = slm_loss(real_wav, y_pred)
    opt_gen.zero_grad()
    loss_gen_lm.backward()
    opt_gen.step()
    opt_wd.zero_grad()
    d_loss_slm.backward()
    opt_wd.step()


decoder, wd, slm_loss, opt_gen, opt_wd = build()
try:
    slm_step_original(decoder, slm_loss, opt_gen, opt_wd)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

decoder, wd, slm_loss, opt_gen, opt_wd = build()
dec0 = decoder[0].weight.detach().clone()
wd0 = wd.net[0].weight.detach().clone()
for _ in range(30):
    slm_step_reordered(decoder, slm_loss, opt_gen, opt_wd)
assert decoder[0].weight.grad is not None and decoder[0].weight.grad.abs().sum() > 0
assert not torch.equal(dec0, decoder[0].weight)
assert not torch.equal(wd0, wd.net[0].weight)
print("original order: second backward refused as expected; reordered steps train both nets")
