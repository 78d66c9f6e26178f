"""
expect: GL002 custom_loss.py:22, GL003 custom_loss.py:27
dynamic: confirm
source: https://github.com/Bolin97/CoS/blob/6b292b18e2e3639d6760ce003c5d5b472a31bec6/scorer/custom_loss.py

A DistilBERT text scorer is trained with a custom Trainer loss: cross-entropy
plus a contrastive term that, inside each "ability region" (label k and label
k + n/2), pulls same-label [CLS] vectors together and pushes the others apart.
The per-region losses are collected in a Python list and averaged with
torch.tensor(c_losses).mean(), which copies their values into a fresh tensor
with no history, so the contrastive term is a constant. With use_ce=True the
model trains on cross-entropy alone (the contrastive weight changes nothing);
with use_ce=False the whole loss is history-free, backward() would fail, and
the code sets total_loss.requires_grad = True, which makes it run while
nothing is trained. The asserts reproduce both modes on a tiny bag-of-words
classifier: with use_ce=False every .grad is None and the weights are unchanged;
with use_ce=True the gradients are identical for contrastive weight 0 and 1.
The fixed loss (torch.stack) trains the encoder alone and changes the gradient.
"""
import warnings

import torch
import torch.nn as nn

from custom_loss import region_contrastive_loss, region_contrastive_loss_fixed

# torch.tensor(list of grad tensors) also warns on recent torch; the original did not see it
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")
torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, NUM_LABELS = 50, 4


class BowScorer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.encoder = nn.EmbeddingBag(VOCAB, dim)
        self.pre_classifier = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, NUM_LABELS)

    def forward(self, tokens, labels):
        cls = self.encoder(tokens)
        logits = self.classifier(torch.relu(self.pre_classifier(cls)))
        return {"loss": nn.functional.cross_entropy(logits, labels), "cls": cls}


def make_batch(n=32):
    labels = torch.arange(NUM_LABELS).repeat(n // NUM_LABELS)
    tokens = torch.randint(0, VOCAB, (n, 6))
    tokens[:, 0] = labels * 10 + torch.randint(0, 5, (n,))   # label-dependent cue word
    return tokens, labels


def train(loss_fn, use_ce, alpha=1.0, steps=5):
    torch.manual_seed(0)
    model = BowScorer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    for _ in range(steps):
        tokens, labels = make_batch()
        loss = loss_fn(model(tokens, labels), labels, NUM_LABELS, 2.0, alpha, use_ce)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, before


def encoder_grad(loss_fn, alpha):
    torch.manual_seed(0)
    model = BowScorer()
    tokens, labels = make_batch()
    loss_fn(model(tokens, labels), labels, NUM_LABELS, 2.0, alpha, True).backward()
    return model.encoder.weight.grad.clone()


# contrastive-only run: the loss is a constant with requires_grad switched on
model, before = train(region_contrastive_loss, use_ce=False)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

# cross-entropy + contrastive: the contrastive weight has no effect on the gradient
assert torch.equal(encoder_grad(region_contrastive_loss, 0.0), encoder_grad(region_contrastive_loss, 1.0))

# fixed loss: the contrastive term reaches the encoder
model, before = train(region_contrastive_loss_fixed, use_ce=False)
assert model.encoder.weight.grad is not None
assert not torch.equal(before[0], model.encoder.weight)
assert not torch.allclose(encoder_grad(region_contrastive_loss_fixed, 0.0),
                          encoder_grad(region_contrastive_loss_fixed, 1.0))
print("r04 ok: list->torch.tensor contrastive term is constant; torch.stack version trains")
