"""expect: none
dynamic: dismiss

A music auto-tagger encodes spectrogram frames and detaches the clip embedding only in eval mode, where the embedding is cached for a similarity index. Training runs through the `else` branch with the full graph, so the encoder the optimizer holds does learn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoTagger(nn.Module):
    def __init__(self, n_bins=32, hidden=48, n_tags=5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(n_bins, hidden, 3, padding=1), nn.ReLU())
        self.tagger = nn.Linear(hidden, n_tags)
        self.cache = []

    def forward(self, spec):  # spec: (batch, n_bins, frames)
        emb = self.encoder(spec).mean(dim=-1)
        if not self.training:
            emb = emb.detach()
            self.cache.append(emb)
        return self.tagger(emb)


def main():
    torch.manual_seed(0)
    model = AutoTagger()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    spec = torch.randn(64, 32, 40)
    tags = (spec[:, :5, :].mean(dim=-1) > 0).float()
    enc_before = [p.detach().clone() for p in model.encoder.parameters()]

    model.train()
    losses = []
    for _ in range(80):
        loss = F.binary_cross_entropy_with_logits(model(spec), tags)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.encoder.parameters())
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.6 * losses[0], (losses[0], losses[-1])
    assert all(not torch.equal(b, p) for b, p in zip(enc_before, model.encoder.parameters()))

    model.eval()
    model(spec)
    assert not model.cache[-1].requires_grad and len(model.cache) == 1
    print(f"B3 ok: encoder trained ({losses[0]:.3f} -> {losses[-1]:.3f}); eval embedding cached detached")


if __name__ == "__main__":
    main()
