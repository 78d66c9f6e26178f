"""
expect: GL002 46
dynamic: confirm
source: kind 2

A BiLSTM-free named-entity tagger adds a "span F1 penalty" to its
cross-entropy: the predicted tags are pulled out with .detach().cpu().numpy(),
F1 is computed in numpy, and the penalty is copied back with torch.tensor(...)
and added alone to the loss. The asserts show the penalty does not require
grad and the gradients with and without it are identical, while a
differentiable soft-F1 surrogate does change the gradients.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

O_TAG = 0


def token_f1(pred, gold):
    tp = np.sum((pred == gold) & (gold != O_TAG))
    fp = np.sum((pred != O_TAG) & (pred != gold))
    fn = np.sum((gold != O_TAG) & (pred != gold))
    return 2 * tp / max(2 * tp + fp + fn, 1)


class Tagger(nn.Module):
    def __init__(self, vocab=50, dim=16, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        return self.proj(torch.tanh(self.emb(tokens)))


class TaggingLoss:
    def __init__(self, f1_weight=1.0):
        self.f1_weight = f1_weight

    def __call__(self, logits, gold):
        ce = F.cross_entropy(logits.flatten(0, 1), gold.flatten())
        pred = logits.argmax(-1).detach().cpu().numpy()
        f1 = token_f1(pred, gold.numpy())
        penalty = torch.tensor(1.0 - f1, dtype=torch.float32)
        return ce + self.f1_weight * penalty, penalty


def grads_of(model, loss):
    model.zero_grad()
    loss.backward()
    return torch.cat([p.grad.flatten() for p in model.parameters()])


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Tagger()
    tokens = torch.randint(0, 50, (4, 12))
    gold = torch.randint(0, 5, (4, 12))
    crit = TaggingLoss(f1_weight=5.0)

    loss, penalty = crit(model(tokens), gold)
    assert not penalty.requires_grad and penalty.item() > 0
    g_with = grads_of(model, loss)
    g_ce = grads_of(model, F.cross_entropy(model(tokens).flatten(0, 1), gold.flatten()))
    assert torch.allclose(g_with, g_ce)  # the F1 term contributes nothing

    # fix: a differentiable soft-F1 built from the probabilities
    probs = model(tokens).softmax(-1)
    gold_1h = F.one_hot(gold, 5).float()[..., 1:]
    tp = (probs[..., 1:] * gold_1h).sum()
    soft_f1 = 2 * tp / (probs[..., 1:].sum() + gold_1h.sum())
    ce = F.cross_entropy(model(tokens).flatten(0, 1), gold.flatten())
    g_soft = grads_of(model, ce + 5.0 * (1 - soft_f1))
    assert not torch.allclose(g_soft, g_ce)
    print("ok: numpy F1 penalty adds no gradient; soft F1 does")
