"""
expect: none
dynamic: dismiss
source: https://github.com/uvipen/Hierarchical-attention-networks-pytorch/blob/b1ea9e0b7bc294364f213e42507a6fe9d502a044/src/hierarchical_att_model.py

This HAN implementation for long-document classification keeps its GRU states on
the module: forward() loops over the sentences of the batch and writes the word GRU
state back into self.word_hidden_state, so the state of sentence k is the initial
state of sentence k+1, and the sentence-level state is stored the same way
(issue #2 of the repo asked whether this explicit state handling is needed). A
tensor that keeps history and is stored on self across calls looks like the
classic "graph carried into the next iteration" mistake, but train.py calls
model._init_hidden_state() before every batch, which replaces both states with fresh
zeros, so each batch builds its own graph and a plain loss.backward() is enough.
The eval pass re-initialises the state too and runs under torch.no_grad(), and the
accuracy is computed from predictions.detach().numpy() (a logged copy). The asserts
show: several epochs of training with no error, every parameter receiving a
gradient, the state being a fresh leaf right after the re-init, an identical
autograd graph size for every batch, and the training loss going down.
"""
import numpy as np
import torch
import torch.nn as nn

from han import HierAttNet

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, N_CLASSES, BATCH, SENTS, WORDS = 30, 3, 8, 4, 6


def make_docs(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    docs = torch.randint(3, VOCAB, (n, SENTS, WORDS))
    for i, y in enumerate(labels.tolist()):      # class-specific keyword in one sentence
        docs[i, torch.randint(0, SENTS, (1,)), :2] = y
    return docs, labels


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nf for nf, _ in fn.next_functions)
    return len(seen)


train_docs, train_labels = make_docs(64)
test_docs, test_labels = make_docs(16)

model = HierAttNet(VOCAB, 8, 8, BATCH, N_CLASSES)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

sizes, epoch_losses = [], []
for epoch in range(8):
    model.train()
    total = 0.0
    for i in range(0, train_docs.shape[0], BATCH):
        feature, label = train_docs[i:i + BATCH], train_labels[i:i + BATCH]
        optimizer.zero_grad()
        model._init_hidden_state()
        assert model.word_hidden_state.grad_fn is None
        predictions = model(feature)
        loss = criterion(predictions, label)
        sizes.append(graph_size(loss))
        loss.backward()
        if epoch == 0 and i == 0:
            assert all(p.grad is not None for p in model.parameters())
        optimizer.step()
        acc = (np.argmax(predictions.detach().numpy(), 1) == label.numpy()).mean()
        total += loss.item()
    epoch_losses.append(total)

    model.eval()
    with torch.no_grad():
        model._init_hidden_state(test_docs.shape[0])
        te_pred = model(test_docs)
    te_acc = (te_pred.argmax(1) == test_labels).float().mean().item()

assert len(set(sizes)) == 1, set(sizes)
assert epoch_losses[-1] < 0.5 * epoch_losses[0], epoch_losses
print("r18 ok: per-batch graph size %d constant, train loss %.2f -> %.2f, last train acc %.2f"
      % (sizes[0], epoch_losses[0], epoch_losses[-1], acc))
