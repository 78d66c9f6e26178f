"""
expect: GL001 main.py:31
dynamic: confirm
source: none, invented

Multi-speaker TTS-style decoder training. networks.py has a MelDecoder with an `adapter` Linear and a
SpeakerEncoder (a GRU over a reference utterance) that produces a low-rank-plus-identity matrix for that
adapter. The decoder is wrapped in nn.DataParallel, so `personalize` writes
`decoder.module.adapter.weight.data = speaker_enc(ref)` before the loop calls `decoder.forward(text)`; one Adam
optimizer holds both networks. Writing through `.data` swaps the values in without recording any autograd
edge, so the mel loss never reaches the speaker encoder: its GRU and projection get `.grad is None` and stay
bit-identical however long it trains. The asserts show that, and that a variant passing the generated matrix
through `torch.func.functional_call` makes the speaker encoder learn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from networks import N_MELS, MelDecoder, SpeakerEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

N_SPEAKERS = 3
voice_mix = torch.randn(N_SPEAKERS, N_MELS, N_MELS) * 0.3 + torch.eye(N_MELS)
text_to_mel = torch.randn(16, N_MELS)


def personalize(decoder, speaker_enc, ref_mels):
    decoder.module.adapter.weight.data = speaker_enc(ref_mels)


def utterances(spk, n=16, frames=10):
    text = torch.randn(n, frames, 16)
    mels = torch.tanh(text @ text_to_mel) @ voice_mix[spk]
    return text, mels


def train(use_functional, steps=40):
    torch.manual_seed(0)
    decoder = nn.DataParallel(MelDecoder())
    speaker_enc = SpeakerEncoder()
    optim = torch.optim.Adam(list(decoder.parameters()) + list(speaker_enc.parameters()), lr=2e-3)
    start = [p.detach().clone() for p in speaker_enc.parameters()]
    for step in range(steps):
        spk = step % N_SPEAKERS
        _, ref = utterances(spk, n=4)
        text, target = utterances(spk)
        if use_functional:
            weight = speaker_enc(ref)
            pred = functional_call(decoder.module, {"adapter.weight": weight}, (text,))
        else:
            personalize(decoder, speaker_enc, ref)
            pred = decoder.forward(text)
        loss = F.l1_loss(pred, target)
        optim.zero_grad()
        loss.backward()
        optim.step()
    moved = [not torch.equal(a, b) for a, b in zip(start, speaker_enc.parameters())]
    return speaker_enc, moved


speaker_enc, moved = train(use_functional=False)
assert all(p.grad is None for p in speaker_enc.parameters())
assert not any(moved)

speaker_enc, moved = train(use_functional=True)
assert all(p.grad is not None for p in speaker_enc.parameters())
assert all(moved)
print("ok: the speaker encoder only learns when its output stays in the graph")
