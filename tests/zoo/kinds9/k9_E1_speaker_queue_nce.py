"""expect: GL002 26
dynamic: confirm

A speaker-verification encoder is trained with speaker cross-entropy plus a MoCo-style InfoNCE term from a loss module that holds only buffers (a queue of negatives and its pointer). The module's `forward` returns `torch.tensor(nce.item())`, a fresh leaf with no history, so the contrastive term contributes nothing to the encoder's gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QueueInfoNCE(nn.Module):
    def __init__(self, dim=32, size=64, temperature=0.1):
        super().__init__()
        self.temperature = temperature
        self.register_buffer("queue", F.normalize(torch.randn(size, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    def forward(self, anchor, positive):
        a, p = F.normalize(anchor, dim=1), F.normalize(positive, dim=1)
        logits = torch.cat([(a * p).sum(1, keepdim=True), a @ self.queue.clone().t()], dim=1)
        nce = F.cross_entropy(logits / self.temperature, torch.zeros(len(a), dtype=torch.long))
        with torch.no_grad():
            idx = (self.ptr + torch.arange(len(p))) % self.queue.shape[0]
            self.queue[idx] = p
            self.ptr.copy_((self.ptr + len(p)) % self.queue.shape[0])
        return torch.tensor(nce.item())


def main():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 32))
    classifier = nn.Linear(32, 10)
    nce_loss = QueueInfoNCE()
    assert len(list(nce_loss.parameters())) == 0

    utt_a = torch.randn(16, 40)
    utt_b = utt_a + 0.1 * torch.randn(16, 40)  # second utterance of each speaker
    speakers = torch.arange(16) % 10

    def grads(with_nce):
        encoder.zero_grad()
        classifier.zero_grad()
        za, zb = encoder(utt_a), encoder(utt_b)
        loss = F.cross_entropy(classifier(za), speakers)
        if with_nce:
            term = nce_loss(za, zb)
            assert not term.requires_grad and term.item() > 0
            loss = loss + 0.5 * term
        loss.backward()
        return [p.grad.clone() for p in encoder.parameters()]

    for a, b in zip(grads(True), grads(False)):
        assert torch.equal(a, b), "InfoNCE term should not change encoder gradients"
    print("E1 ok: loss module returning torch.tensor(...) adds no gradient")


if __name__ == "__main__":
    main()
