"""expect: GL005 33
dynamic: confirm
source: https://github.com/microsoft/unilm/pull/999

BEATs (audio pre-training) adds a convolutional positional embedding to the
frame features inside its Transformer encoder. The encoder did it in place,
`x += x_conv`, where x_conv = pos_conv(x.transpose(1, 2)). When BEATs is
fine-tuned (its input features now carry gradient), the convolution has
saved its input, which is a view of x, so the in-place add bumps x's version
and backward fails: "one of the variables needed for gradient computation has
been modified by an inplace operation: [..., 768, 248]". The pull request
replaced it with `x = x.clone() + x_conv`; `x = x + x_conv` is enough.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvPositionalEncoder(nn.Module):
    def __init__(self, dim=16, depth=2):
        super().__init__()
        self.pos_conv = nn.Sequential(nn.Conv1d(dim, dim, 5, padding=2, groups=4), nn.GELU())
        self.layer_norm = nn.LayerNorm(dim)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 2, 32, dropout=0.0,
                                                               batch_first=True)
                                    for _ in range(depth))

    def extract_features(self, x, padding_mask=None):
        if padding_mask is not None:
            x[padding_mask] = 0
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x += x_conv
        x = self.layer_norm(x)
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=padding_mask)
        return x


class TinyBEATs(nn.Module):
    def __init__(self, dim=16, embed=8):
        super().__init__()
        self.patch_embedding = nn.Conv2d(1, embed, kernel_size=4, stride=4)
        self.layer_norm = nn.LayerNorm(embed)
        self.post_extract_proj = nn.Linear(embed, dim)
        self.encoder = ConvPositionalEncoder(dim)

    def extract_features(self, fbank, padding_mask=None):
        patches = self.patch_embedding(fbank.unsqueeze(1))       # (B, E, T', F')
        features = patches.flatten(2).transpose(1, 2)             # (B, N, E)
        features = self.post_extract_proj(self.layer_norm(features))
        return self.encoder.extract_features(features, padding_mask)


class AudioTagger(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.beats = TinyBEATs()
        self.head = nn.Linear(16, n_classes)

    def forward(self, fbank, padding_mask=None):
        return self.head(self.beats.extract_features(fbank, padding_mask).mean(1))


def finetune_step(model, optimizer, fbank, labels, padding_mask):
    optimizer.zero_grad()
    loss = F.binary_cross_entropy_with_logits(model(fbank, padding_mask), labels)
    loss.backward()
    optimizer.step()


torch.manual_seed(0)
fbank = torch.randn(2, 32, 16)                  # (batch, frames, mel bins)
labels = torch.randint(0, 2, (2, 5)).float()
n_patches = (32 // 4) * (16 // 4)
padding_mask = torch.zeros(2, n_patches, dtype=torch.bool)
padding_mask[1, -4:] = True

model = AudioTagger()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
raised = False
try:
    finetune_step(model, opt, fbank, labels, padding_mask)
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised
print("OK")
