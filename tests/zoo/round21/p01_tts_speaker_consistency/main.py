"""
expect: GL001 speaker_encoder.py:39
dynamic: confirm
source: https://github.com/coqui-ai/TTS/issues/2348

The report found that YourTTS computes the speaker encoder's spectrogram input under
torch.no_grad(), so the speaker-consistency loss (SCL) between the generated and the
reference waveform is added to the generator loss but sends no gradient back to the
generator. This program trains a tiny vocoder-like generator with reconstruction + SCL
through a frozen speaker encoder whose front end runs under no_grad. The asserts show the
generator gradient is identical with the SCL weight 9 and 0 (while the loss value differs),
and that a front end kept on the graph does change the generator gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from speaker_encoder import SpeakerEncoder

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyGenerator(nn.Module):
    def __init__(self, n_mel=8, frames=16, hop=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_mel, 64), nn.Tanh(), nn.Linear(64, hop))

    def forward(self, mel):                     # B x frames x n_mel -> B x samples
        return self.net(mel).flatten(1)


def scl_loss(encoder, gen_wav, ref_wav, embed=None):
    embed = embed or encoder
    return -F.cosine_similarity(embed(gen_wav), embed(ref_wav)).mean()


def generator_grads(gen, encoder, mel, ref_wav, scl_weight, embed=None):
    gen.zero_grad()
    wav = gen(mel)
    loss = F.l1_loss(wav, ref_wav) + scl_weight * scl_loss(encoder, wav, ref_wav, embed)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in gen.parameters()]


def embed_on_graph(encoder):
    def run(wav):                               # same encoder, front end kept on the graph
        emb = encoder.proj(encoder.features(wav)).mean(dim=1)
        return F.normalize(emb, dim=1)
    return run


encoder = SpeakerEncoder()
for p in encoder.parameters():                  # pretrained and frozen, as in YourTTS
    p.requires_grad_(False)
encoder.eval()

gen = TinyGenerator()
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
mel = torch.randn(4, 16, 8)
ref_wav = torch.randn(4, 16 * 32)

for step in range(5):                            # the training loop runs without complaint
    opt.zero_grad()
    wav = gen(mel)
    loss = F.l1_loss(wav, ref_wav) + 9.0 * scl_loss(encoder, wav, ref_wav)
    loss.backward()
    opt.step()

loss_on, grads_on = generator_grads(gen, encoder, mel, ref_wav, scl_weight=9.0)
loss_off, grads_off = generator_grads(gen, encoder, mel, ref_wav, scl_weight=0.0)
assert abs(loss_on - loss_off) > 1e-3, "the SCL term does add a number to the loss"
for a, b in zip(grads_on, grads_off):
    assert torch.equal(a, b), "SCL should not change the generator gradient here"

_, grads_fixed = generator_grads(gen, encoder, mel, ref_wav, 9.0, embed_on_graph(encoder))
assert any(not torch.allclose(a, b) for a, b in zip(grads_fixed, grads_off)), \
    "with the front end on the graph the SCL does reach the generator"
print("ok: speaker-consistency loss adds", round(loss_on - loss_off, 4), "but no gradient")
