"""
expect: none
dynamic: dismiss
source: none, invented

Weather nowcasting from radar. The script builds a radar-history encoder and two heads (models.py)
and one Adam optimizer over all of them, and calls `nowcast_step` (step.py). The step runs the encoder
through the helper `encode_history`, backpropagates the next-frame loss with retain_graph=True and then
the rain-mask loss through the same encoder forward, and only then calls optimizer.step(). Nothing is
modified between the two backward calls, so the gradients simply accumulate. This is correct. The
asserts show the accumulated gradients equal those of one backward of the summed loss, and that
repeated steps lower both losses.
"""
import torch
import torch.nn.functional as F

from models import RadarEncoder, NextFrameHead, RainMaskHead
from step import nowcast_step, encode_history


def radar_batch(n=8, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 1, size, size, generator=g) * 10
    drift = torch.randn(n, 1, 1, 1, generator=g)
    frames = torch.cat([base + k * drift for k in range(4)], dim=1).clamp(min=0)
    target = (base + 4 * drift).clamp(min=0)
    return frames, target


def build():
    torch.manual_seed(0)
    enc, fh, mh = RadarEncoder(), NextFrameHead(), RainMaskHead()
    opt = torch.optim.Adam(list(enc.parameters()) + list(fh.parameters()) + list(mh.parameters()), lr=5e-3)
    return enc, fh, mh, opt


def main():
    frames, target = radar_batch()

    enc, fh, mh, opt = build()
    ref_enc, ref_fh, ref_mh, _ = build()
    feat = encode_history(ref_enc, frames)
    total = (F.mse_loss(ref_fh(feat), target / 50.0)
             + F.binary_cross_entropy_with_logits(ref_mh(feat), (target > 1.0).float()))
    total.backward()
    ref_grad = ref_enc.conv1.weight.grad.clone()

    first = nowcast_step(enc, fh, mh, opt, frames, target)
    assert torch.allclose(enc.conv1.weight.grad, ref_grad, atol=1e-6)
    print("accumulated gradients match the summed-loss backward")

    for _ in range(120):
        last = nowcast_step(enc, fh, mh, opt, frames, target)
    assert last[0] < first[0] and last[1] < first[1], (first, last)
    print(f"trains: frame {first[0]:.4f}->{last[0]:.4f}, mask {first[1]:.3f}->{last[1]:.3f}")


if __name__ == "__main__":
    main()
