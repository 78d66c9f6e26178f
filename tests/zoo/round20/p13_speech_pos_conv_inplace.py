"""
expect: GL005 47
dynamic: confirm
source: https://github.com/jasonppy/word-discovery/pull/4

A visually grounded speech model (audio encoder in the wav2vec2 style) adds a convolutional
relative position embedding with `x += x_conv`, where x_conv = pos_conv(x.transpose(1, 2)). The
convolution saved its input, which is a view of x, so the in-place add invalidates it and training
fails with "one of the variables needed for gradient computation has been modified by an inplace
operation"; the PR replaced it with `x = x + x_conv`. The program builds a small encoder with a
contrastive audio-visual loss on random features and asserts that backward fails in-place with the
original line and that the out-of-place version trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
FEAT, DIM, T, B = 20, 32, 40, 6


class SamePad(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.remove = 1 if k % 2 == 0 else 0

    def forward(self, x):
        return x[:, :, :-self.remove] if self.remove else x


class AudioEncoder(nn.Module):
    def __init__(self, inplace_add=True, k=8):
        super().__init__()
        self.inplace_add = inplace_add
        self.post_extract_proj = nn.Linear(FEAT, DIM)
        conv = nn.Conv1d(DIM, DIM, kernel_size=k, padding=k // 2, groups=4)
        self.pos_conv = nn.Sequential(conv, SamePad(k), nn.GELU())
        self.layer_norm = nn.LayerNorm(DIM)
        self.block = nn.Sequential(nn.Linear(DIM, 64), nn.GELU(), nn.Linear(64, DIM))

    def forward(self, features):
        x = self.post_extract_proj(features)
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        if self.inplace_add:
            x += x_conv
        else:
            x = x + x_conv
        x = self.layer_norm(x)
        x = x + self.block(x)
        return x.mean(dim=1)


def contrastive_loss(audio_emb, image_emb, temp=0.07):
    logits = F.normalize(audio_emb, dim=-1) @ F.normalize(image_emb, dim=-1).t() / temp
    target = torch.arange(len(logits))
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target))


def train(inplace_add, steps=20):
    torch.manual_seed(2)
    enc, img_proj = AudioEncoder(inplace_add), nn.Linear(16, DIM)
    opt = torch.optim.Adam(list(enc.parameters()) + list(img_proj.parameters()), 1e-3)
    audio, images = torch.randn(B, T, FEAT), torch.randn(B, 16)
    losses = []
    for _ in range(steps):
        loss = contrastive_loss(enc(audio), img_proj(images))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


try:
    train(inplace_add=True)
    err = None
except RuntimeError as e:
    err = str(e)
print("reported:", (err or "")[:80])
assert err is not None and "modified by an inplace operation" in err

losses = train(inplace_add=False)
print(f"fixed: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
assert losses[-1] < losses[0]
print("OK")
