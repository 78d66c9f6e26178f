"""expect: none
dynamic: dismiss

A sentiment classifier runs its text encoder under `torch.no_grad()` each step only to refresh class prototypes for monitoring, while the loss comes from `full = nn.Sequential(encoder, head)`. The optimizer holds `full`, and the encoder is trained through that container, so the no-grad call does not starve it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    vocab, n = 200, 128
    tokens = torch.randint(0, vocab, (n, 12))
    labels = (tokens < 60).sum(dim=1).gt(3).long()  # "positive" words are ids < 60

    encoder = nn.Sequential(nn.EmbeddingBag(vocab, 32), nn.Linear(32, 32), nn.ReLU())
    head = nn.Linear(32, 2)
    full = nn.Sequential(encoder, head)
    opt = torch.optim.Adam(full.parameters(), lr=1e-2)
    enc_before = [p.detach().clone() for p in encoder.parameters()]

    losses = []
    for step in range(60):
        with torch.no_grad():
            emb = encoder(tokens)
            prototypes = torch.stack([emb[labels == c].mean(dim=0) for c in (0, 1)])
        loss = F.cross_entropy(full(tokens), labels)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in encoder.parameters())
        opt.step()
        losses.append(loss.item())

    assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
    assert all(not torch.equal(b, p) for b, p in zip(enc_before, encoder.parameters()))
    assert prototypes.shape == (2, 32)
    print(f"C3 ok: encoder trained through the container ({losses[0]:.3f} -> {losses[-1]:.3f})")


if __name__ == "__main__":
    main()
