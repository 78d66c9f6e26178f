"""
expect: GL002 voice_encoder.py:33
dynamic: confirm
source: https://github.com/resemble-ai/Resemblyzer/pull/67

A Resemblyzer PR rewrites the voice encoder front end in torch because the numpy
mel computation "breaks backpropagation" when the embedding is used as a loss. Here
a tiny voice-conversion generator is trained with reconstruction plus a speaker
similarity term that calls embed_utterance on the generated waveform; the helper
goes through numpy and rebuilds the spectrogram with torch.from_numpy, so the
similarity term never reaches the generator. The asserts show that term alone
leaves every generator gradient empty, while the torch front end trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from voice_encoder import VoiceEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

L = 256


class Converter(nn.Module):
    def __init__(self, spk_dim=8):
        super().__init__()
        self.enc = nn.Conv1d(1, 8, 5, padding=2)
        self.film = nn.Linear(spk_dim, 8)
        self.dec = nn.Conv1d(8, 1, 5, padding=2)

    def forward(self, wav, spk):
        h = torch.tanh(self.enc(wav[None, None]))
        h = h * (1 + self.film(spk)[None, :, None])
        return self.dec(h)[0, 0]


class VCLoss:
    def __init__(self, spk_encoder, sim_weight=1.0, torch_frontend=False):
        self.spk = spk_encoder
        self.w = sim_weight
        self.torch_frontend = torch_frontend

    def speaker_term(self, out_wav, tgt_emb):
        embed = self.spk.embed_utterance_torch if self.torch_frontend else self.spk.embed_utterance
        return 1 - F.cosine_similarity(embed(out_wav), tgt_emb, dim=0)

    def __call__(self, out_wav, src_wav, tgt_emb):
        return F.l1_loss(out_wav, src_wav) + self.w * self.speaker_term(out_wav, tgt_emb)


spk_enc = VoiceEncoder()
gen = Converter()
src = torch.randn(L) * 0.3
tgt_wav = torch.randn(L) * 0.3
tgt_emb = spk_enc.embed_utterance(tgt_wav)

crit = VCLoss(spk_enc)
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
for _ in range(3):
    opt.zero_grad()
    loss = crit(gen(src, tgt_emb), src, tgt_emb)
    loss.backward()
    opt.step()

# the speaker-similarity term alone gives the generator nothing
gen.zero_grad(set_to_none=True)
term = crit.speaker_term(gen(src, tgt_emb), tgt_emb)
assert not term.requires_grad
assert all(p.grad is None for p in gen.parameters())

# its weight has no effect on the gradient of the full loss
def grads(weight, torch_frontend=False):
    gen.zero_grad(set_to_none=True)
    VCLoss(spk_enc, weight, torch_frontend)(gen(src, tgt_emb), src, tgt_emb).backward()
    return torch.cat([p.grad.flatten() for p in gen.parameters()])

assert torch.allclose(grads(1.0), grads(100.0))

# torch front end: the same term now trains the generator
assert not torch.allclose(grads(1.0, True), grads(100.0, True))
print("ok: numpy front end cuts the speaker-similarity loss from the generator")
