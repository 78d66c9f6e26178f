"""
expect: GL003 main.py:56
dynamic: confirm
source: none, invented

NLP / product-review sentiment. The training script imports the tokenizer and
batching helpers from the project's `textkit` package. The package's
`__init__.py` was written for the serving workers and calls
`torch.set_grad_enabled(False)` at import time, so importing
`textkit.tokenize` silently switches autograd off for the whole training
process. `train_step` then calls `loss.backward()` on a loss with no graph and
raises. The asserts check that grad mode is off right after the import, catch
the RuntimeError from the training step, and show that the same step run under
`torch.enable_grad()` updates the embedding weights.
"""
import random

import torch
import torch.nn.functional as F

from textkit.tokenize import HashTokenizer
from textkit.batching import minibatches
from model import BagOfEmbeddings

GOOD = ["great battery life", "love the screen", "works perfectly fine", "excellent value"]
BAD = ["broke after a week", "terrible support", "screen cracked fast", "waste of money"]


def make_reviews(n=64, seed=0):
    rng = random.Random(seed)
    return [(rng.choice(GOOD), 1) if rng.random() < 0.5 else (rng.choice(BAD), 0) for _ in range(n)]


def train_step(model, opt, tok, texts, labels):
    ids = tok.encode_batch(texts)
    y = torch.tensor(labels)
    opt.zero_grad()
    loss = F.cross_entropy(model(ids), y)
    loss.backward()
    opt.step()
    return loss.item()


def main():
    assert not torch.is_grad_enabled(), "textkit import should have switched grad off"
    torch.manual_seed(0)
    tok = HashTokenizer()
    model = BagOfEmbeddings()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    reviews = make_reviews()
    before = model.emb.weight.clone()

    errors = []
    for texts, labels in minibatches(reviews, 16):
        try:
            train_step(model, opt, tok, texts, labels)
        except RuntimeError as err:
            errors.append(err)
    assert errors and all("does not require grad" in str(e) for e in errors)
    assert torch.equal(model.emb.weight, before)

    # fixed: re-enable recording around training
    with torch.enable_grad():
        losses = [train_step(model, opt, tok, t, l) for t, l in minibatches(reviews * 5, 16)]
    assert not torch.equal(model.emb.weight, before)
    assert losses[-1] < losses[0]
    print("k05 ok: textkit import disabled grad, train_step raised; enable_grad run trains")


if __name__ == "__main__":
    main()
