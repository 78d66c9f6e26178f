"""
expect: GL005 48
dynamic: confirm
source: https://github.com/INFLUENCEorg/IALS/commit/757f9727bf08edb4087a301d81c8adf366e7b4cb

An influence predictor for an influence-augmented local simulator (multi-agent
warehouse RL): an LSTM reads a window of local observations and one linear
head per influence source predicts that source's next value. The trainer
loops over the sources and, for each one, calls single_loss.backward(
retain_graph=True) and then optimizer.step() before moving on to the next
source. Every source loss goes back through the same LSTM graph, and the
optimizer step after the first source overwrites in place the LSTM weights
that graph saved, so the next backward raises "one of the variables needed for
gradient computation has been modified by an inplace operation". The asserts
catch that error and show that summing the per-source losses and taking one
backward and one step per batch (the repository's later fix) trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InfluencePredictor(nn.Module):
    def __init__(self, obs_dim, hidden, source_sizes):
        super().__init__()
        self.lstm = nn.LSTM(obs_dim, hidden, batch_first=True)
        self.heads = nn.ModuleList(nn.Linear(hidden, k) for k in source_sizes)

    def forward(self, seqs):
        out, _ = self.lstm(seqs)
        last = out[:, -1]
        return [head(last) for head in self.heads]


def make_data(n=64, seq_len=8, obs_dim=10, source_sizes=(6, 2, 6, 2), seed=0):
    g = torch.Generator().manual_seed(seed)
    seqs = torch.randn(n, seq_len, obs_dim, generator=g)
    targets = [((seqs[:, -1, i] + seqs[:, -2, i]) > 0).long() * (k - 1) for i, k in enumerate(source_sizes)]
    return seqs, targets


def train_per_source_steps(model, optimizer, seqs, targets, loss_fns):
    logits = model(seqs)
    for s, (lg, tg) in enumerate(zip(logits, targets)):
        optimizer.zero_grad()
        single_loss = loss_fns[s % 2](lg, tg)
        single_loss.backward(retain_graph=True)
        optimizer.step()


def train_summed(model, optimizer, seqs, targets, loss_fns):
    logits = model(seqs)
    optimizer.zero_grad()
    loss = sum(loss_fns[s % 2](lg, tg) for s, (lg, tg) in enumerate(zip(logits, targets)))
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.set_num_threads(1)
    torch.manual_seed(0)
    sizes = (6, 2, 6, 2)
    seqs, targets = make_data(source_sizes=sizes)
    loss_fns = [nn.CrossEntropyLoss(), nn.CrossEntropyLoss()]

    model = InfluencePredictor(10, 16, sizes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=0.001)
    try:
        train_per_source_steps(model, optimizer, seqs, targets, loss_fns)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("second source backward should fail after the first step")

    torch.manual_seed(0)
    model = InfluencePredictor(10, 16, sizes)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=0.001)
    history = [train_summed(model, optimizer, seqs, targets, loss_fns) for _ in range(60)]
    assert history[-1] < 0.5 * history[0], (history[0], history[-1])
    print(f"per-source steps: backward fails; summed loss {history[0]:.3f} -> {history[-1]:.3f}")
