"""expect: GL005 32
dynamic: confirm
source: https://github.com/thuanz123/enhancing-transformers/issues/11

A ViT-VQGAN style decoder adds its positional embedding to the incoming tokens
with `token += self.de_pos_embedding`, which edits the caller's quantised
latent in place. The latent is the saved output of the encoder's tanh, so when
the same latent is decoded by two decoders and the losses are backpropagated,
autograd reports a variable modified by an inplace operation. The maintainer
changed it to `token = token + self.de_pos_embedding`.
"""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return torch.tanh(self.proj(x))


class ViTDecoder(nn.Module):
    def __init__(self, tokens, dim):
        super().__init__()
        self.de_pos_embedding = nn.Parameter(torch.randn(1, tokens, dim) * 0.02)
        self.head = nn.Linear(dim, dim)

    def forward(self, token):
        token += self.de_pos_embedding
        return self.head(token)


if __name__ == "__main__":
    torch.manual_seed(0)
    enc, dec_a, dec_b = Encoder(8), ViTDecoder(4, 8), ViTDecoder(4, 8)
    x = torch.randn(2, 4, 8)
    quant = enc(x)
    rec_a = dec_a(quant)
    rec_b = dec_b(quant)
    try:
        ((rec_a - x).pow(2).mean() + (rec_b - x).pow(2).mean()).backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
    else:
        raise AssertionError("expected the in-place error")
    print("ok: decoder edits the shared latent in place")
