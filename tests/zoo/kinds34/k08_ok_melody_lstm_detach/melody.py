import torch
import torch.nn as nn
import torch.nn.functional as F


class MelodyLSTM(nn.Module):
    """Next-note model over a long melody; keeps (h, c) on itself between chunks."""

    def __init__(self, n_pitches=24, dim=32):
        super().__init__()
        self.embed = nn.Embedding(n_pitches, dim)
        self.lstm = nn.LSTM(dim, dim)
        self.head = nn.Linear(dim, n_pitches)
        self.state = None

    def forward(self, notes):  # notes: (T, B)
        out, self.state = self.lstm(self.embed(notes), self.state)
        return self.head(out)

    def detach_state(self):
        if self.state is not None:
            self.state = tuple(s.detach() for s in self.state)


def train_epoch(model, optimizer, batches):
    total = 0.0
    for notes, next_notes in batches:
        model.detach_state()
        logits = model(notes)
        loss = F.cross_entropy(logits.flatten(0, 1), next_notes.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(batches)
