"""
expect: GL001 26
dynamic: confirm
source: kinds check 11, kind 6

A sentence encoder for NLP is trained with a classification loss plus a
SimCSE-like contrastive term between two dropout views. The ContrastiveProjector
module detaches its input in forward before projecting it, but it is handed the
encoder's TRAINING activations whose gradient the contrastive loss needs. The
projector's own weights still learn, yet the contrastive term never reaches the
encoder: the encoder's gradient from cls + contrastive equals its gradient from
cls alone, although the contrastive loss is non-zero. The detach in the
projector's forward is the cut.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveProjector(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, h):
        h = h.detach()
        return F.normalize(self.proj(h), dim=-1)


def main():
    torch.manual_seed(10)
    encoder = nn.Sequential(nn.EmbeddingBag(80, 32, mode="mean"), nn.Dropout(0.2), nn.Linear(32, 32), nn.Tanh())
    classifier = nn.Linear(32, 3)
    projector = ContrastiveProjector(32)
    sents = torch.randint(0, 80, (8, 12))
    labels = torch.randint(0, 3, (8,))

    h1, h2 = encoder(sents), encoder(sents)
    cls = F.cross_entropy(classifier(h1), labels)
    z1, z2 = projector(h1), projector(h2)
    sim = z1 @ z2.t() / 0.1
    contrastive = F.cross_entropy(sim, torch.arange(8))
    loss = cls + contrastive
    assert contrastive.item() > 0.1

    enc_params = list(encoder.parameters())
    g_total = torch.autograd.grad(loss, enc_params, retain_graph=True)
    g_cls = torch.autograd.grad(cls, enc_params, retain_graph=True)
    for a, b in zip(g_total, g_cls):
        assert torch.equal(a, b), "contrastive term reached the encoder"
    loss.backward()
    assert all(p.grad is not None for p in projector.parameters())
    print("k06 bug: contrastive term %.3f never reaches the encoder" % contrastive.item())


if __name__ == "__main__":
    main()
