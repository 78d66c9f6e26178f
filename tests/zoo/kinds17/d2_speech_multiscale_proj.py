"""
expect: none
dynamic: dismiss
source: kind D

A speech encoder with a multi-resolution auxiliary loss: ``encode_pyramid``
returns ``(scales, logits)`` where ``scales`` is a list of per-resolution
frame features.  The loss loop projects each scale in place of its list slot
(``scales[k] = self.heads[k](scales[k])``) and adds a reconstruction loss
against pooled targets.  Only Python list entries are rebound, no tensor is
mutated, so backward succeeds.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PyramidEncoder(nn.Module):
    def __init__(self, n_mels=32, dim=24, levels=3, n_phones=12):
        super().__init__()
        self.inp = nn.Conv1d(n_mels, dim, 3, padding=1)
        self.down = nn.ModuleList(nn.Conv1d(dim, dim, 3, stride=2, padding=1) for _ in range(levels - 1))
        self.heads = nn.ModuleList(nn.Conv1d(dim, n_mels, 1) for _ in range(levels))
        self.ctc = nn.Linear(dim, n_phones)

    def encode_pyramid(self, mel):
        h = F.gelu(self.inp(mel))
        scales = [h]
        for conv in self.down:
            h = F.gelu(conv(h))
            scales.append(h)
        return scales, self.ctc(h.transpose(1, 2))

    def multiscale_loss(self, mel):
        scales, logits = self.encode_pyramid(mel)
        total = logits.logsumexp(-1).mean() * 0.0
        for k, _ in enumerate(scales):
            scales[k] = self.heads[k](scales[k])
            target = F.avg_pool1d(mel, 2 ** k) if k else mel
            total = total + F.l1_loss(scales[k], target[..., : scales[k].shape[-1]])
        return total, logits


def main():
    torch.manual_seed(10)
    model = PyramidEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    mel = torch.randn(3, 32, 64)
    first = None
    for _ in range(25):
        loss, logits = model.multiscale_loss(mel)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert logits.shape == (3, 16, 12)
    assert all(h.weight.grad is not None for h in model.heads)
    assert loss.item() < first, (first, loss.item())
    print("multiscale", first, "->", loss.item())


if __name__ == "__main__":
    main()
