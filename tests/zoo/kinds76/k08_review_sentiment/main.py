"""
expect: none
dynamic: dismiss
source: none, invented

NLP / review sentiment. ReviewClassifier pools word vectors in a method decorated
`@torch.no_grad()`, and `objective` trains on top of that pooled vector; fit.py steps
AdamW over model.parameters(). This is correct: the embedding table holds pretrained
vectors loaded from a checkpoint and is frozen on purpose with
`requires_grad_(False)` (they are shared with other services), so recording its
lookup would be wasted work; the trainable encoder and output layer run outside the
no-grad method and are fully trained. The asserts show the loss falls and accuracy is
high, the encoder and head weights change and receive gradients, and the frozen
embedding table is bit-for-bit unchanged.
"""
import torch

from fit import accuracy, fit
from model import ReviewClassifier
from pretrained import pretrained_vectors


def make_reviews(n=320, length=12, vocab=200, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 2, (n,), generator=g)
    tokens = torch.randint(40, vocab, (n, length), generator=g)
    sentiment_words = torch.where(
        labels[:, None] == 1,
        torch.randint(1, 20, (n, 3), generator=g),
        torch.randint(20, 40, (n, 3), generator=g),
    )
    tokens[:, :3] = sentiment_words
    tokens[:, -2:] = 0  # padding
    return [(tokens[i:i + 32], labels[i:i + 32]) for i in range(0, n, 32)]


def main():
    torch.manual_seed(0)
    data = make_reviews()
    model = ReviewClassifier(pretrained_vectors())
    emb_before = model.embedding.weight.detach().clone()
    enc_before = model.encoder[0].weight.detach().clone()

    curve = fit(model, data)
    acc = accuracy(model, data)
    print(f"loss {curve[0]:.3f} -> {curve[-1]:.3f}, accuracy {acc:.3f}")
    assert curve[-1] < 0.3 * curve[0]
    assert acc > 0.95
    assert model.encoder[0].weight.grad is not None
    assert not torch.equal(model.encoder[0].weight.detach(), enc_before)
    assert not model.embedding.weight.requires_grad
    assert torch.equal(model.embedding.weight.detach(), emb_before)
    print("OK")


if __name__ == "__main__":
    main()
