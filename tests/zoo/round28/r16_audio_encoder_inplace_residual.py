"""
expect: GL005 46, GL005 47
dynamic: confirm
source: https://github.com/vllm-project/vllm/pull/24500

A PR titled "Prefer in-place add and multiply" rewrote the residual updates of
an audio-language encoder block as x += ls1(attn(norm1(x))). The review bot
flagged it as critical for training: norm1 and norm2 save x for backward, and
the in-place add bumps its version before backward runs. Here AudioBlock keeps
the in-place residuals; inference under no_grad gives the same output as the
out-of-place block, but a fine-tuning step fails in backward. The asserts
show the outputs match, the backward raises the version-counter error, and
the out-of-place block trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LayerScale(nn.Module):
    def __init__(self, dim, init=0.1):
        super().__init__()
        self.gamma = nn.Parameter(init * torch.ones(dim))

    def forward(self, x):
        return x * self.gamma


class AudioBlock(nn.Module):
    def __init__(self, dim=32, heads=4, inplace=True):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.ls1, self.ls2 = LayerScale(dim), LayerScale(dim)
        self.inplace = inplace

    def _attn(self, h, mask):
        return self.attn(h, h, h, key_padding_mask=mask, need_weights=False)[0]

    def forward(self, x, mask=None):
        if self.inplace:
            x += self.ls1(self._attn(self.norm1(x), mask))
            x += self.ls2(self.mlp(self.norm2(x)))
            return x
        x = x + self.ls1(self._attn(self.norm1(x), mask))
        x = x + self.ls2(self.mlp(self.norm2(x)))
        return x


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=16, dim=32, inplace=True):
        super().__init__()
        self.patch = nn.Linear(n_mels, dim)
        self.blocks = nn.ModuleList(AudioBlock(dim, inplace=inplace) for _ in range(2))
        self.cls = nn.Linear(dim, 5)

    def forward(self, mel):
        x = self.patch(mel)
        for blk in self.blocks:
            x = blk(x)
        return self.cls(x.mean(dim=1))


mel = torch.randn(3, 20, 16)
labels = torch.tensor([0, 3, 1])
enc_inplace = AudioEncoder(inplace=True)
enc_plain = AudioEncoder(inplace=False)
enc_plain.load_state_dict(enc_inplace.state_dict())

with torch.no_grad():
    assert torch.allclose(enc_inplace(mel), enc_plain(mel), atol=1e-6)

loss = F.cross_entropy(enc_inplace(mel), labels)
try:
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

opt = torch.optim.SGD(enc_plain.parameters(), lr=0.05)
w0 = enc_plain.blocks[0].mlp[0].weight.detach().clone()
loss = F.cross_entropy(enc_plain(mel), labels)
loss.backward()
opt.step()
assert not torch.equal(enc_plain.blocks[0].mlp[0].weight, w0)
print("in-place residual: backward fails; out-of-place block trains")
