"""
expect: GL005 spk.py:16
dynamic: confirm
source: https://github.com/speechbrain/speechbrain/issues/2390

SpeechBrain's mel-spectrogram speaker encoder was found to modify the caller's
mel spectrogram in place on CPU. In a TTS trainer that uses such an encoder
as a speaker-consistency loss, the predicted mel is first used by the L1
reconstruction loss and a pow-based energy term (which save it), and then
normalised in place by `encode_mel`. The asserts show backward fails with a
version-counter error, while passing a clone trains fine.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from spk import SpeakerEncoder

torch.manual_seed(0)
torch.set_num_threads(1)


class MelDecoder(nn.Module):
    def __init__(self, n_mels=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, n_mels))

    def forward(self, z):
        return self.net(z)


def tts_loss(decoder, spk, z, mel_ref, spk_ref, clone=False):
    mel = decoder(z)
    recon = F.l1_loss(mel, mel_ref)
    energy = (mel.pow(2).mean() - mel_ref.pow(2).mean()).abs()
    emb = spk.encode_mel(mel.clone() if clone else mel)
    spk_loss = 1 - F.cosine_similarity(emb, spk_ref).mean()
    return recon + 0.1 * energy + spk_loss


dec, spk = MelDecoder(), SpeakerEncoder()
z = torch.randn(2, 20, 4)
mel_ref = torch.randn(2, 20, 16)
spk_ref = torch.randn(2, 8)

failed = False
try:
    tts_loss(dec, spk, z, mel_ref, spk_ref).backward()
except RuntimeError as e:
    failed = "inplace operation" in str(e)
assert failed, "in-place normalisation should break backward"

dec.zero_grad()
tts_loss(dec, spk, z, mel_ref, spk_ref, clone=True).backward()
assert dec.net[0].weight.grad is not None and dec.net[0].weight.grad.abs().sum() > 0
print("ok: in-place mel normalisation breaks the TTS backward")
