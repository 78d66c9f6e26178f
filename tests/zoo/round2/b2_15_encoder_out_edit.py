"""expect: GL005 39
dynamic: confirm
source: https://github.com/facebookresearch/fairseq/issues/251

A sequence model's caller post-processes the encoder output before handing it
to the decoder, rewriting some channels with `encoder_out[:, :, j] = ...`. The
encoder's last op (tanh) saved that very tensor for backward, so training
fails with "one of the variables needed for gradient computation has been
modified by an inplace operation". The maintainer's answer was to copy the
tensor and modify the copy.
"""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, src):
        return torch.tanh(self.proj(src))


class Seq2Seq(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.encoder = Encoder(dim)
        self.decoder = nn.Linear(dim, dim)


def rescale(channel):
    return channel * 0.5 + 0.1


def run(model, src, channels):
    encoder_out = model.encoder(src)
    for j in channels:
        encoder_out[:, :, j] = rescale(encoder_out[:, :, j])
    return model.decoder(encoder_out)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Seq2Seq()
    out = run(model, torch.randn(3, 5, 6), [0, 2])
    try:
        out.pow(2).mean().backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
    else:
        raise AssertionError("expected the in-place error")
    print("ok: editing the encoder output in place breaks backward")
