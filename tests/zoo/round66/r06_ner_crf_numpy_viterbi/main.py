"""
expect: GL002 crf_tagger.py:73
dynamic: confirm
source: https://github.com/flairNLP/flair/issues/2249

Named-entity recognition with a BiLSTM-CRF tagger (flair's SequenceTagger design), reused
as the lower half of a stacked model: a sentence-level head (here: "does this sentence
mention a location?") reads the tagger's per-token label distribution and the loss is
computed at the top, expecting the error to flow back through the tagger, including the
CRF transition matrix. The distribution comes from `obtain_label_distribution`, which runs
Viterbi in NumPy (`.detach().cpu().numpy()` on emissions and transitions) and rebuilds the
result with `torch.tensor(confidences)` (crf_tagger.py). The rebuilt tensor is a constant,
so the top loss trains only the head: the LSTM, the emission layer and the transitions get
no gradient at all, which is what the issue author ran into. The asserts show those grads
are None after the stacked loss is backpropagated, while the head's are not, then run the
fixed variant (`label_distribution_torch`, the same recursion in torch), where the
transitions and LSTM receive gradient and the joint loss falls further than with the
frozen tagger.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn
import torch.nn.functional as F

from crf_tagger import CRFTagger

torch.manual_seed(0)
torch.set_num_threads(1)

TAGS = ["<START>", "<STOP>", "O", "B-LOC", "B-PER"]


class SentenceHead(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.proj = nn.Linear(num_tags, 1)

    def forward(self, distribution):
        return self.proj(distribution.max(0).values).squeeze(-1)


def make_corpus(n=40, length=7, vocab=30):
    data = []
    for _ in range(n):
        toks = torch.randint(4, vocab, (length,))
        tags = torch.full((length,), 2)
        has_loc = bool(torch.rand(()) < 0.5)
        if has_loc:
            pos = int(torch.randint(0, length, ()))
            toks[pos] = 1          # "Paris"
            tags[pos] = 3
        if torch.rand(()) < 0.5:
            pos = int(torch.randint(0, length, ()))
            if tags[pos] == 2:
                toks[pos] = 2      # "Anna"
                tags[pos] = 4
        data.append((toks, tags, torch.tensor(float(has_loc))))
    return data


def stacked_loss(tagger, head, toks, label, differentiable):
    if differentiable:
        dist = tagger.label_distribution_torch(toks)
    else:
        _, dist = tagger.obtain_label_distribution(toks)
    return F.binary_cross_entropy_with_logits(head(dist), label)


def train(differentiable, corpus, epochs=6):
    torch.manual_seed(1)
    tagger, head = CRFTagger(30, len(TAGS)), SentenceHead(len(TAGS))
    opt = torch.optim.Adam(list(tagger.parameters()) + list(head.parameters()), lr=2e-2)
    for _ in range(epochs):
        for toks, _, label in corpus:
            opt.zero_grad()
            stacked_loss(tagger, head, toks, label, differentiable).backward()
            opt.step()
    with torch.no_grad():
        return sum(stacked_loss(tagger, head, t, l, differentiable).item() for t, _, l in corpus) / len(corpus)


def main():
    corpus = make_corpus()
    toks, tags, label = corpus[0]

    tagger, head = CRFTagger(30, len(TAGS)), SentenceHead(len(TAGS))
    # the tagger's own CRF loss is fine
    tagger.neg_log_likelihood(toks, tags).backward()
    assert tagger.transitions.grad is not None
    tagger.zero_grad(set_to_none=True)

    # stacked loss through the NumPy Viterbi output: nothing reaches the tagger
    stacked_loss(tagger, head, toks, label, differentiable=False).backward()
    assert head.proj.weight.grad is not None
    assert tagger.transitions.grad is None
    assert tagger.linear.weight.grad is None
    assert all(p.grad is None for p in tagger.rnn.parameters())

    # fixed: the recursion inside autograd reaches transitions and LSTM
    head.zero_grad(set_to_none=True)
    stacked_loss(tagger, head, toks, label, differentiable=True).backward()
    assert tagger.transitions.grad is not None and tagger.transitions.grad.abs().sum() > 0
    assert all(p.grad is not None for p in tagger.rnn.parameters())

    frozen = train(False, corpus)
    joint = train(True, corpus)
    print("stacked loss after training: numpy path %.4f, torch path %.4f" % (frozen, joint))
    assert joint < frozen


if __name__ == "__main__":
    main()
