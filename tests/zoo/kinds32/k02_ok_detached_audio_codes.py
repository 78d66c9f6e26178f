"""
expect: none
dynamic: dismiss
source: kinds check 32, kind 1

Same speaker-ID probe, but the encoder's codes are detached once before the
epoch loop, so each epoch builds a fresh graph that ends at the codes. The
retain_graph=True is redundant but harmless: nothing reaches the encoder.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ProbeTrainer:
    def __init__(self, head):
        self.head = head
        self.opt = torch.optim.Adam(head.parameters(), lr=1e-2)
        self.crit = nn.CrossEntropyLoss()

    def fit(self, codes, labels, epochs):
        for epoch in range(epochs):
            self.opt.zero_grad()
            loss = self.crit(self.head(codes), labels)
            loss.backward(retain_graph=True)
            self.opt.step()
        return loss.item()


encoder = nn.Sequential(nn.Conv1d(1, 8, 5, stride=2), nn.ReLU(),
                        nn.AdaptiveAvgPool1d(4), nn.Flatten())
probe = nn.Linear(32, 5)
wave = torch.randn(16, 1, 200)
speaker = torch.randint(0, 5, (16,))

codes = encoder(wave).detach()
trainer = ProbeTrainer(probe)
first = trainer.fit(codes, speaker, epochs=1)
last = trainer.fit(codes, speaker, epochs=30)

assert encoder[0].weight.grad is None
assert not codes.requires_grad
assert last < first, (first, last)
print("ok", first, last)
