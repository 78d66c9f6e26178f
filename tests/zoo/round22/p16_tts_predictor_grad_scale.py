"""
expect: none
dynamic: dismiss
source: https://github.com/keonlee9420/Comprehensive-Transformer-TTS/issues/9

A user of a FastSpeech-style TTS repo asked why the duration predictor's input is
`x.detach() + self.predictor_grad * (x - x.detach())`, since the second term is always
zero. It is a gradient-scaling trick: the value is exactly x, but the gradient flowing
from the duration loss back into the text encoder is multiplied by predictor_grad.
This program uses it in a small encoder + duration/mel model. The asserts show the
input value is unchanged, the encoder's gradient from the duration loss is exactly
predictor_grad times the unscaled one, every parameter gets a gradient, and the loss
falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class VarianceAdaptor(nn.Module):
    def __init__(self, d, predictor_grad=0.1):
        super().__init__()
        self.predictor_grad = predictor_grad
        self.duration_predictor = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))

    def scaled_input(self, x):
        return x.detach() + self.predictor_grad * (x - x.detach())

    def forward(self, x):
        return self.duration_predictor(self.scaled_input(x)).squeeze(-1)


class TinyTTS(nn.Module):
    def __init__(self, vocab=20, d=16, n_mels=8, predictor_grad=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.encoder = nn.GRU(d, d, batch_first=True)
        self.adaptor = VarianceAdaptor(d, predictor_grad)
        self.mel_head = nn.Linear(d, n_mels)

    def forward(self, tokens):
        h, _ = self.encoder(self.embed(tokens))
        return self.mel_head(h), self.adaptor(h), h


def losses(model, tokens, mel_t, logdur_t):
    mel, logdur, h = model(tokens)
    return F.l1_loss(mel, mel_t), F.mse_loss(logdur, logdur_t), h


torch.manual_seed(0)
tokens = torch.randint(0, 20, (4, 7))
mel_t, logdur_t = torch.randn(4, 7, 8), torch.rand(4, 7)

model = TinyTTS()
x = torch.randn(3, 16, requires_grad=True)
assert torch.equal(model.adaptor.scaled_input(x), x)

# gradient of the duration loss w.r.t. the encoder output, scaled vs unscaled
_, dur, h = losses(model, tokens, mel_t, logdur_t)
g_scaled, = torch.autograd.grad(dur, h)
model.adaptor.predictor_grad = 1.0
_, dur, h = losses(model, tokens, mel_t, logdur_t)
g_full, = torch.autograd.grad(dur, h)
assert torch.allclose(g_scaled, 0.1 * g_full, atol=1e-7)
model.adaptor.predictor_grad = 0.1

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for _ in range(40):
    mel_l, dur_l, _ = losses(model, tokens, mel_t, logdur_t)
    opt.zero_grad()
    (mel_l + dur_l).backward()
    assert all(p.grad is not None for p in model.parameters())
    opt.step()
    history.append((mel_l + dur_l).item())
assert history[-1] < history[0]
print("p16 ok: detach-based gradient scaling keeps the value and trains everything")
