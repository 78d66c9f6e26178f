"""
expect: none
dynamic: dismiss
source: kinds check 42, kind 1

A small bag-of-tokens intent classifier, pretrained on one set of intents, is
adapted to a new label distribution by RetentionTrainer, a plain helper class
holding the model and an Adam optimizer over self.model.parameters(). Its
retention_term method compares the model's state_dict(keep_vars=True) - the live
Parameters, not detached copies - with reference weights passed in, and fit_batch
adds that term to the cross-entropy loss before backward. The asserts show the
term requires grad, gives nonzero gradients on its own, and that training with it
keeps the weights much closer to the reference than training without it.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class BagClassifier(nn.Module):
    def __init__(self, vocab=200, dim=24, classes=5):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):
        return self.head(self.emb(tokens))


class RetentionTrainer:
    def __init__(self, model, weight):
        self.model = model
        self.weight = weight
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=0.02)

    def retention_term(self, anchor):
        live = self.model.state_dict(keep_vars=True)
        terms = [(live[name] - old).pow(2).mean() for name, old in anchor.items()]
        return self.weight * torch.stack(terms).sum()

    def fit_batch(self, tokens, labels, anchor):
        self.optimizer.zero_grad()
        ce = F.cross_entropy(self.model(tokens), labels)
        total = ce + self.retention_term(anchor)
        total.backward()
        self.optimizer.step()
        return ce.item()


def batches(gen, n_classes, bias):
    tokens = torch.randint(0, 200, (64, 12), generator=gen)
    labels = ((tokens[:, 0] + bias) % n_classes)
    return tokens, labels


def shift(model, anchor):
    sd = model.state_dict()
    return sum((sd[k] - v).pow(2).sum().item() for k, v in anchor.items())


def main():
    torch.manual_seed(3)
    gen = torch.Generator().manual_seed(4)
    base = BagClassifier()
    pre_opt = torch.optim.Adam(base.parameters(), lr=0.02)
    for _ in range(40):
        tokens, labels = batches(gen, 5, 0)
        pre_opt.zero_grad()
        F.cross_entropy(base(tokens), labels).backward()
        pre_opt.step()
    anchor = {k: v.detach().clone() for k, v in base.state_dict().items()}

    data = [batches(gen, 5, 2) for _ in range(40)]
    free = copy.deepcopy(base)
    kept = copy.deepcopy(base)
    t_free, t_kept = RetentionTrainer(free, 0.0), RetentionTrainer(kept, 50.0)

    assert t_kept.retention_term(anchor).requires_grad
    for tokens, labels in data:
        t_free.fit_batch(tokens, labels, anchor)
        t_kept.fit_batch(tokens, labels, anchor)
    t_kept.optimizer.zero_grad()
    t_kept.retention_term(anchor).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in kept.parameters())
    s_free, s_kept = shift(free, anchor), shift(kept, anchor)
    assert s_kept < 0.5 * s_free, (s_free, s_kept)
    print(f"weight shift without retention {s_free:.3f}, with retention {s_kept:.3f}")


if __name__ == "__main__":
    main()
