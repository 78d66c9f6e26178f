"""
expect: GL002 losses.py:25
dynamic: confirm
source: https://github.com/chenghui2011001/final_version/blob/9edc369cecc3bd7c752dd1fde0bb1ec8a58185f5/training/stage5_losses.py

A tiny speech codec (encoder, bottleneck, decoder) is trained with a composite loss:
waveform L1, feature MSE and a "real PESQ" quality penalty that pushes the perceptual
score above a threshold. The quality metric is computed in NumPy on detached audio
and the per-utterance scores are rebuilt with torch.tensor(...) before the hinge
penalty, so the penalty is a constant with no history: it shows up in the logged loss
(and is large here) but contributes nothing to any gradient. The asserts show the
decoder gradient is bit-identical with and without the quality term, and that a
differentiable (torch) SNR-style penalty of the same form does change it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import comprehensive_loss

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyCodec(nn.Module):
    def __init__(self, n=256, feat=18, latent=8):
        super().__init__()
        self.register_buffer("analysis", torch.randn(n, feat) / n ** 0.5)  # fixed filterbank
        self.enc = nn.Sequential(nn.Linear(feat, 32), nn.Tanh(), nn.Linear(32, latent))
        self.dec_feat = nn.Linear(latent, feat)
        self.decoder = nn.Sequential(nn.Linear(feat, 64), nn.Tanh(), nn.Linear(64, n))

    def forward(self, wave):
        feat = wave @ self.analysis
        z = self.enc(feat)
        feat_hat = self.dec_feat(z)
        return {"feat": feat, "feat_hat": feat_hat, "synth": self.decoder(feat_hat)}


def decoder_grads(model, wave, weights):
    model.zero_grad()
    out = model(wave)
    total, parts = comprehensive_loss(out, {"wave": wave, "feat": out["feat"]}, weights)
    total.backward()
    return [p.grad.clone() for p in model.decoder.parameters()], parts


wave = torch.randn(6, 256) * 0.3
model = TinyCodec()

with_q, parts = decoder_grads(model, wave, {"wave": 0.6, "feat": 0.5, "quality": 1.0})
without_q, _ = decoder_grads(model, wave, {"wave": 0.6, "feat": 0.5, "quality": 0.0})
assert parts["quality"] > 0.5, parts                      # penalty is active and large
assert all(torch.equal(a, b) for a, b in zip(with_q, without_q)), "quality term moved grads"


def torch_quality_penalty(synth, target, minimum=2.5):
    err = target - synth
    seg = 10 * torch.log10((target.pow(2).reshape(target.shape[0], -1, 32).sum(-1))
                           / (err.pow(2).reshape(err.shape[0], -1, 32).sum(-1) + 1e-8) + 1e-8)
    score = 1.0 + 3.5 * torch.sigmoid((seg.clamp(-10, 35).mean(-1) - 10.0) / 4.0)
    return F.relu(minimum - score).pow(2).mean()


model.zero_grad()
out = model(wave)
F.l1_loss(out["synth"], wave).mul(0.6).add(torch_quality_penalty(out["synth"], wave)).backward()
intended = [p.grad.clone() for p in model.decoder.parameters()]
model.zero_grad()
out = model(wave)
F.l1_loss(out["synth"], wave).mul(0.6).backward()
plain = [p.grad.clone() for p in model.decoder.parameters()]
assert any(not torch.allclose(a, b) for a, b in zip(intended, plain)), "torch penalty should matter"
print("quality penalty (logged):", round(parts["quality"], 3),
      "| decoder grad changed by it:", any(not torch.equal(a, b) for a, b in zip(with_q, without_q)))
