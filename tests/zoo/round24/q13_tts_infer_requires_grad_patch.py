"""
expect: GL003 84
dynamic: confirm
source: https://github.com/NVIDIA/DeepLearningExamples/issues/458

A user attacked Tacotron2 in the encoder-output space (PGD-like) through the model's
inference path and found the returned mel had requires_grad=False, so no gradient reached the
encoder outputs. The inference routine runs without autograd; the quick way past "element 0
of tensors does not require grad" is to call mel.requires_grad_() on the result, after which
backward runs but the perturbation still gets nothing. Here a small Tacotron-style decoder has
a no-grad infer() and a universal perturbation generator is trained against it; the asserts
show the generator's parameters get no gradient and never change, while running the
differentiable decoder pass instead trains the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, ENC, MEL, STEPS = 30, 32, 16, 12


class TinyTacotron(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, ENC)
        self.encoder = nn.GRU(ENC, ENC, batch_first=True)
        self.prenet = nn.Sequential(nn.Linear(MEL, ENC), nn.ReLU())
        self.decoder_cell = nn.GRUCell(2 * ENC, ENC)
        self.attn = nn.Linear(ENC, ENC)
        self.mel_proj = nn.Linear(2 * ENC, MEL)

    def encode(self, text):
        return self.encoder(self.embedding(text))[0]

    def decode(self, encoder_outputs):
        b = encoder_outputs.size(0)
        h = encoder_outputs.new_zeros(b, ENC)
        frame = encoder_outputs.new_zeros(b, MEL)
        mels = []
        for _ in range(STEPS):
            scores = torch.bmm(encoder_outputs, self.attn(h).unsqueeze(2)).squeeze(2)
            context = torch.bmm(scores.softmax(1).unsqueeze(1), encoder_outputs).squeeze(1)
            h = self.decoder_cell(torch.cat([self.prenet(frame), context], 1), h)
            frame = self.mel_proj(torch.cat([h, context], 1))
            mels.append(frame)
        return torch.stack(mels, 1)

    @torch.no_grad()
    def infer(self, encoder_outputs):
        return self.decode(encoder_outputs)


class PerturbationGenerator(nn.Module):
    def __init__(self, eps=0.3):
        super().__init__()
        self.eps = eps
        self.net = nn.Sequential(nn.Linear(ENC, 64), nn.Tanh(), nn.Linear(64, ENC))

    def forward(self, enc):
        return enc + self.eps * torch.tanh(self.net(enc))


tts = TinyTacotron().eval().requires_grad_(False)
text = torch.randint(0, VOCAB, (4, 10))
with torch.no_grad():
    enc = tts.encode(text)
    clean_mel = tts.decode(enc)


def attack(differentiable, steps=5):
    torch.manual_seed(1)
    gen = PerturbationGenerator()
    w0 = gen.net[0].weight.detach().clone()
    opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
    for _ in range(steps):
        adv = gen(enc)
        if differentiable:
            mel = tts.decode(adv)
        else:
            mel = tts.infer(adv)
            mel.requires_grad_(True)
        loss = -F.mse_loss(mel, clean_mel)
        opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in gen.parameters()]
        opt.step()
    return grads, not torch.equal(w0, gen.net[0].weight)


grads, moved = attack(differentiable=False)
assert all(g is None for g in grads) and not moved

grads, moved = attack(differentiable=True)
assert all(g is not None for g in grads) and moved
print("q13 ok: requires_grad_() on a no-grad inference output hides a dead attack objective")
