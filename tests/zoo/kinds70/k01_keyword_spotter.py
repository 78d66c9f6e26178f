"""
expect: GL001 33
dynamic: confirm
source: none, invented

A small keyword-spotting model for speech: a convolutional acoustic encoder over log-mel frames followed by a
classifier head. The constructor takes a `freeze_encoder` flag that, when set, turns off requires_grad on the
encoder so only the head is fine-tuned. The script builds the model with `freeze_encoder=False` and gives the
optimizer every parameter, so the intent is to train the encoder too. But `encode()` always runs the encoder under
`with torch.no_grad():`, so the encoder output carries no graph and the encoder never receives gradients,
regardless of the flag. This is a bug: the encoder silently stays at its random initialisation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, n_keywords=10, hidden=64, freeze_encoder=True):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(n_mels, hidden, kernel_size=5, padding=2),
            nn.ReLU(),
            nn.Conv1d(hidden, hidden, kernel_size=5, padding=2),
            nn.ReLU(),
        )
        self.head = nn.Linear(hidden, n_keywords)
        if freeze_encoder:
            for p in self.encoder.parameters():
                p.requires_grad_(False)

    def encode(self, mel):
        with torch.no_grad():
            frames = self.encoder(mel)
        return frames.mean(dim=-1)

    def forward(self, mel):
        return self.head(self.encode(mel))


def main():
    torch.manual_seed(0)
    model = KeywordSpotter(freeze_encoder=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    enc_before = [p.detach().clone() for p in model.encoder.parameters()]
    head_before = [p.detach().clone() for p in model.head.parameters()]

    for step in range(20):
        mel = torch.randn(16, 40, 50)
        labels = torch.randint(0, 10, (16,))
        loss = F.cross_entropy(model(mel), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    assert all(p.requires_grad for p in model.encoder.parameters())
    assert all(p.grad is None for p in model.encoder.parameters()), "encoder unexpectedly got gradients"
    assert all(torch.equal(a, p) for a, p in zip(enc_before, model.encoder.parameters())), "encoder changed"
    assert any(not torch.equal(a, p) for a, p in zip(head_before, model.head.parameters())), "head did not train"
    print("bug confirmed: encoder never trained although freeze_encoder=False")


if __name__ == "__main__":
    main()
