"""
expect: GL001 95
dynamic: confirm
source: https://github.com/DigitalPhonetics/IMS-Toucan/issues/188

Text-to-speech (ToucanTTS-style non-autoregressive acoustic model). The encoder's
self-attention uses rotary position embeddings whose cos/sin tables are built lazily on
the first call and cached on the module. The train loop renders a progress spectrogram
before the first update, inside `with torch.inference_mode():`. That first call is the
one that fills the cache, so the cached tables are inference tensors; every later
training step multiplies the queries/keys by them, and backward cannot save them
("Inference tensors cannot be saved for backward"). The maintainer's diagnosis in the
issue: a cache tensor created while inference mode was active cannot be used for
training. The asserts catch that error on the default path, then show that rendering
the progress plot under torch.no_grad() instead leaves normal tensors in the cache and
the mel loss falls.
"""
import math

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.cos_cached = None
        self.sin_cached = None

    def tables(self, length):
        if self.cos_cached is None or self.cos_cached.size(0) < length:
            t = torch.arange(length).float()
            freqs = torch.outer(t, self.inv_freq)
            emb = torch.cat([freqs, freqs], dim=-1)
            self.cos_cached = emb.cos()
            self.sin_cached = emb.sin()
        return self.cos_cached[:length], self.sin_cached[:length]


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat([-b, a], dim=-1)


class RotaryAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.rotary = RotaryEmbedding(dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        cos, sin = self.rotary.tables(x.size(1))
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        att = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(q.size(-1)), dim=-1)
        return x + self.out(att @ v)


class TinyToucan(nn.Module):
    def __init__(self, n_phonemes=20, dim=32, n_mels=16, upsample=2):
        super().__init__()
        self.embed = nn.Embedding(n_phonemes, dim)
        self.encoder = nn.ModuleList([RotaryAttention(dim) for _ in range(2)])
        self.upsample = upsample
        self.decoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, n_mels))

    def forward(self, phonemes):
        x = self.embed(phonemes)
        for block in self.encoder:
            x = block(x)
        x = x.repeat_interleave(self.upsample, dim=1)  # fixed durations
        return self.decoder(x)


def make_batch(n=8, length=12, n_mels=16):
    phonemes = torch.randint(0, 20, (n, length))
    table = torch.randn(20, n_mels)
    mels = table[phonemes].repeat_interleave(2, dim=1)
    return phonemes, mels


def plot_progress(model, phonemes, safe=False):
    model.eval()
    if safe:
        with torch.no_grad():
            mel = model(phonemes[:1])
    else:
        with torch.inference_mode():
            mel = model(phonemes[:1])
    model.train()
    return mel.shape


def train_loop(model, steps, safe_plot=False):
    phonemes, mels = make_batch()
    plot_progress(model, phonemes, safe=safe_plot)  # sanity check before step 0
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(steps):
        loss = F.l1_loss(model(phonemes), mels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    model = TinyToucan()
    try:
        train_loop(model, 1)
        raise AssertionError("expected the inference-mode cache to break backward")
    except RuntimeError as err:
        assert "Inference tensors cannot be saved for backward" in str(err), err
        print("inference_mode progress plot:", str(err).split(".")[0])

    model = TinyToucan()
    losses = train_loop(model, 150, safe_plot=True)
    print(f"no_grad progress plot: mel L1 {losses[0]:.3f} -> {losses[-1]:.3f}")
    assert losses[-1] < 0.6 * losses[0]


if __name__ == "__main__":
    main()
