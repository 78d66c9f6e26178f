"""
expect: GL005 35
dynamic: confirm
source: https://github.com/dobby-seo/Wav2Keyword/pull/9

Wav2Keyword fine-tunes a wav2vec 2.0 encoder for keyword spotting. The vendored
TransformerEncoder added the convolutional positional embedding with x += x_conv, where x_conv
was computed from x.transpose(1, 2): the positional conv saved that view of x for its weight
gradient, and the in-place add then modified it (the PR notes older PyTorch gave wrong
gradients silently; newer versions raise). This file trains a small keyword classifier whose
encoder block has the same residual; the asserts show the in-place residual trips the version
counter at backward, while the out-of-place residual (the PR's fix) trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PosConvEncoder(nn.Module):
    def __init__(self, dim=32, inplace=True):
        super().__init__()
        self.inplace = inplace
        self.pos_conv = nn.Conv1d(dim, dim, kernel_size=5, padding=2, groups=4)
        self.layer_norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))

    def extract_features(self, x):
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        if self.inplace:
            x += x_conv
        else:
            x = x + x_conv
        x = self.layer_norm(x)
        h, _ = self.attn(x, x, x, need_weights=False)
        x = x + h
        return x + self.ffn(x)


class KeywordSpotter(nn.Module):
    def __init__(self, n_keywords=6, inplace=True):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(1, 16, 20, stride=10), nn.GELU(),
                                      nn.Conv1d(16, 32, 6, stride=4), nn.GELU())
        self.proj = nn.Linear(32, 32)
        self.encoder = PosConvEncoder(32, inplace=inplace)
        self.head = nn.Linear(32, n_keywords)

    def forward(self, wav):
        feats = self.frontend(wav.unsqueeze(1)).transpose(1, 2)
        x = self.encoder.extract_features(self.proj(feats))
        return self.head(x.mean(dim=1))


def train_step(model, opt):
    wav, label = torch.randn(8, 4000), torch.randint(0, 6, (8,))
    loss = F.cross_entropy(model(wav), label)
    opt.zero_grad()
    loss.backward()
    opt.step()


model = KeywordSpotter(inplace=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
err = None
try:
    train_step(model, opt)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err

fixed = KeywordSpotter(inplace=False)
fixed.load_state_dict(model.state_dict())
opt_f = torch.optim.Adam(fixed.parameters(), lr=1e-3)
w = fixed.encoder.pos_conv.weight.detach().clone()
for _ in range(3):
    train_step(fixed, opt_f)
assert not torch.equal(w, fixed.encoder.pos_conv.weight)
print("q04 ok: in-place positional-conv residual breaks the saved conv input")
