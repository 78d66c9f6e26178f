"""
expect: GL003 46
dynamic: confirm
source: kind C

An NLP evaluation harness measures how linearly decodable a sentence encoder's
features are by fitting a logistic-regression probe.  ``evaluate`` wraps the
whole pass in ``with torch.no_grad():`` to save memory, then calls
``probe_accuracy`` which calls ``fit_probe``; the latter runs
``loss.backward()`` on a freshly built probe.  Under no_grad nothing is
recorded, so backward raises "element 0 of tensors does not require grad".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.ff = nn.Linear(dim, dim)

    def forward(self, tokens):
        return torch.tanh(self.ff(self.emb(tokens)))


def fit_probe(feats, labels, n_cls, steps=25):
    probe = nn.Linear(feats.shape[1], n_cls)
    opt = torch.optim.SGD(probe.parameters(), lr=0.5)
    for _ in range(steps):
        loss = F.cross_entropy(probe(feats), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return probe


def probe_accuracy(feats, labels, n_cls):
    probe = fit_probe(feats, labels, n_cls)
    return (probe(feats).argmax(-1) == labels).float().mean().item()


def evaluate(encoder, tokens, labels):
    encoder.eval()
    with torch.no_grad():
        feats = encoder(tokens)
        acc = probe_accuracy(feats, labels, n_cls=4)
    return acc


def main():
    torch.manual_seed(6)
    enc = SentenceEncoder()
    tokens = torch.randint(0, 100, (40, 9))
    labels = torch.randint(0, 4, (40,))
    try:
        evaluate(enc, tokens, labels)
    except RuntimeError as e:
        assert "element 0 of tensors does not require grad" in str(e), e
        print("probe fit failed under no_grad as expected")
    else:
        raise AssertionError("expected the probe fit to fail")


if __name__ == "__main__":
    main()
