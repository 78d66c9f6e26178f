"""expect: GL001 33
dynamic: confirm
source: kinds8 (kind B)

The trainable adapter is called inside the no_grad block meant for the frozen
encoder, so it is in the optimizer but never receives a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenTextEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.requires_grad_(False)

    def forward(self, ids):
        seq, _ = self.rnn(self.emb(ids))
        return seq.mean(1)


class SentimentProbe(nn.Module):
    def __init__(self, vocab=50, dim=16, n_cls=3):
        super().__init__()
        self.encoder = FrozenTextEncoder(vocab, dim)
        self.adapter = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, n_cls)

    def forward(self, ids):
        with torch.no_grad():
            pooled = self.encoder(ids)
            adapted = torch.relu(self.adapter(pooled))
        return self.classifier(adapted)


def main():
    torch.manual_seed(0)
    probe = SentimentProbe()
    trainable = [w for w in probe.parameters() if w.requires_grad]
    assert any(w is probe.adapter.weight for w in trainable)
    opt = torch.optim.Adam(trainable, lr=1e-3)
    ids = torch.randint(0, 50, (4, 9))
    labels = torch.randint(0, 3, (4,))
    opt.zero_grad()
    loss = F.cross_entropy(probe(ids), labels)
    loss.backward()
    opt.step()
    assert probe.adapter.weight.grad is None
    assert probe.adapter.bias.grad is None
    assert probe.classifier.weight.grad is not None
    print("OK")


if __name__ == "__main__":
    main()
