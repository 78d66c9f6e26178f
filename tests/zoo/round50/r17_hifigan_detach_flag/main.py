"""
expect: none
dynamic: dismiss
source: https://github.com/fallnlove/HiFiGAN/blob/HEAD/src/model/hifigan/hifigan.py

A small HiFi-GAN vocoder step: the generator turns a mel-like input into a waveform, the
multi-period and multi-scale discriminators score real and generated audio, and each batch does a
discriminator update followed by a generator update (least-squares adversarial loss, feature
matching, and an L1 loss on a spectrogram of the output). discriminate() takes a detach flag: the
trainer passes detach=True for the discriminator update, so the generated waveform is cut from the
generator on purpose, and calls it again without the flag for the generator update, after the
discriminator step, with a fresh forward. Logged values are .item() and .detach().cpu() copies.
The asserts check that the discriminator backward leaves the generator without gradients, that
the adversarial term alone gives the generator a nonzero gradient, and that both networks
change and the spectral loss falls over a short run.
"""
import torch
import torch.nn.functional as F

from hifigan import HiFiGAN

torch.manual_seed(0)
torch.set_num_threads(1)

N_MELS, FRAMES, HOP = 8, 32, 4
mel_basis = torch.rand(N_MELS, 33)


def to_mel(wav):
    spec = torch.stft(wav.squeeze(1), 64, hop_length=HOP, window=torch.hann_window(64), return_complex=True).abs()
    return torch.log(mel_basis @ spec + 1e-5)[..., :FRAMES]


def d_criterion(gt_res, gen_res, **batch):
    loss = sum(torch.mean((1 - r) ** 2) + torch.mean(g ** 2) for r, g in zip(gt_res, gen_res))
    return {"loss_disc": loss}


def g_criterion(gen_res, gt_feat, gen_feat, audio, generated_wav, **batch):
    adv = sum(torch.mean((1 - g) ** 2) for g in gen_res)
    fm = sum(F.l1_loss(g, r.detach()) for rs, gs in zip(gt_feat, gen_feat) for r, g in zip(rs, gs))
    mel = F.l1_loss(to_mel(generated_wav), to_mel(audio))
    return {"loss_gen": adv + 2 * fm + 45 * mel, "adv_loss": adv, "mel_loss": mel}


def make_batch(b=4):
    t = torch.arange(FRAMES * HOP).float()
    f = torch.rand(b, 1, 1) * 0.2 + 0.05
    audio = 0.6 * torch.sin(f * t) + 0.02 * torch.randn(b, 1, t.numel())
    return {"audio": audio, "mel": to_mel(audio)}


model = HiFiGAN()
gen_params = list(model.generator.parameters())
disc_params = list(model.mpd.parameters()) + list(model.msd.parameters())
g_optimizer = torch.optim.AdamW(gen_params, lr=2e-3, betas=(0.8, 0.99))
d_optimizer = torch.optim.AdamW(disc_params, lr=2e-3, betas=(0.8, 0.99))

gen_start = [p.detach().clone() for p in gen_params]
disc_start = [p.detach().clone() for p in disc_params]
fixed = make_batch()
history = []
for it in range(60):
    batch = make_batch()
    batch.update(model(batch["mel"]))

    batch.update(model.discriminate(**batch, detach=True))
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
    batch.update(d_criterion(**batch))
    batch["loss_disc"].backward()
    assert all(p.grad is None for p in gen_params)
    d_optimizer.step()

    g_optimizer.zero_grad()
    batch.update(model.discriminate(**batch))
    batch.update(g_criterion(**batch))
    if it == 0:
        adv_grads = torch.autograd.grad(batch["adv_loss"], gen_params, retain_graph=True)
        assert sum(g.abs().sum().item() for g in adv_grads) > 0
    batch["loss_gen"].backward()
    g_optimizer.step()

    sample = batch["generated_wav"][0].detach().cpu()
    history.append({"disc": batch["loss_disc"].item(), "mel": batch["mel_loss"].item(), "peak": sample.abs().max().item()})

with torch.no_grad():
    probe = model.discriminate(**fixed, generated_wav=model(fixed["mel"])["generated_wav"], detach=True)
assert len(probe["gen_res"]) == 4
assert any(not torch.equal(a, b) for a, b in zip(gen_start, gen_params))
assert any(not torch.equal(a, b) for a, b in zip(disc_start, disc_params))
first = sum(h["mel"] for h in history[:5]) / 5
last = sum(h["mel"] for h in history[-5:]) / 5
assert last < 0.8 * first
print(f"spectral L1 {first:.3f} -> {last:.3f}, discriminator loss {history[-1]['disc']:.3f}")
