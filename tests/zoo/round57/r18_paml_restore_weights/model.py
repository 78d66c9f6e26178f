import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PersonaModel(nn.Module):
    """Stand-in for the dialogue model: it owns its own inner-loop optimizer and
    exposes train_one_batch(batch, train) like the original Transformer class."""

    def __init__(self, vocab=12, hidden=32, lr=0.1):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.encoder = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
        self.generator = nn.Linear(hidden, vocab)
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, src):
        return self.generator(self.encoder(self.embedding(src).mean(1)))

    def train_one_batch(self, batch, train=True):
        src, tgt = batch
        self.optimizer.zero_grad()
        logits = self(src)
        loss = F.cross_entropy(logits, tgt)
        if train:
            loss.backward()
            self.optimizer.step()
        return loss.item(), math.exp(loss.item()), loss


def do_learning_fix_step(model, train_iter, val_iter, iterations=1):
    """Adapt to the persona on its train dialogues, return the loss on its
    validation dialogues (still attached to the graph for the meta update)."""
    for _ in range(iterations):
        for batch in train_iter:
            model.train_one_batch(batch)
    val_loss = 0
    for batch in val_iter:
        _, _, loss = model.train_one_batch(batch, train=False)
        val_loss = val_loss + loss
    return val_loss
