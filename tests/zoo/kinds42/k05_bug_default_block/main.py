"""
expect: GL005 blocks.py:14
dynamic: confirm
source: kinds check 42, kind 3

A multi-label tagger for mel-spectrogram frames. MelTagger takes its residual
block class as a constructor argument with default GatedResidual, whose forward
aliases h = x and then adds into it in place. The first block's input is the
output of torch.sigmoid, which sigmoid's backward needs, so the in-place add bumps
its version and loss.backward() raises. The program builds the tagger with the
default block, catches that RuntimeError and checks its message, then shows the
same tagger built with block=PlainResidual trains normally (loss drops).
"""
import torch
import torch.nn.functional as F

from blocks import MelTagger, PlainResidual


def clip_batch(gen, n=128):
    mel = torch.randn(n, 40, generator=gen)
    tags = (mel[:, :6] + 0.2 * torch.randn(n, 6, generator=gen) > 0.3).float()
    return mel, tags


def fit(model, mel, tags, steps=60):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(mel), tags)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    torch.manual_seed(5)
    mel, tags = clip_batch(torch.Generator().manual_seed(6))

    tagger = MelTagger()
    try:
        fit(tagger, mel, tags)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("default block trained without error")

    working = MelTagger(block=PlainResidual)
    losses = fit(working, mel, tags)
    assert losses[-1] < 0.7 * losses[0], losses
    print(f"default block: backward raised as expected; PlainResidual loss {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
