"""
expect: none
dynamic: dismiss
source: none, invented

A character-level language model trained with truncated back-propagation through time on a small
repeating text.  The script style puts everything under `if __name__ == "__main__":`: the recurrent
model is picked from the module-level `MODELS` registry (`{"gru": CharGRU, "lstm": CharLSTM}`), a
nested `make_optimizer` factory builds AdamW with weight decay only on matrices, and the loop carries
the hidden state across chunks, detaching it at each chunk boundary (`hidden.detach()` or a tuple of
detached LSTM states) so that back-propagation stops at the previous chunk on purpose.  Detached
logits are only used for the running accuracy.  The asserts check that every parameter gets gradient
each step, that the loss of both architectures falls below a quarter of its starting value, and that
greedy decoding reproduces the text.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharGRU(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids, hidden=None):
        h, hidden = self.rnn(self.emb(ids), hidden)
        return self.out(h), hidden


class CharLSTM(CharGRU):
    def __init__(self, vocab, dim=64):
        super().__init__(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)


MODELS = {"gru": CharGRU, "lstm": CharLSTM}


if __name__ == "__main__":
    torch.set_num_threads(1)
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk", type=int, default=32)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=6)
    args = parser.parse_args([])

    def make_optimizer(model, lr=5e-3, wd=0.01):
        decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
        no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
        return torch.optim.AdamW([{"params": decay, "weight_decay": wd},
                                  {"params": no_decay, "weight_decay": 0.0}], lr=lr)

    data = torch.tensor([STOI[c] for c in TEXT])
    usable = (len(data) - 1) // args.batch * args.batch
    inputs = data[:usable].view(args.batch, -1)
    targets = data[1:usable + 1].view(args.batch, -1)

    for arch in MODELS:
        torch.manual_seed(0)
        model = MODELS[arch](len(VOCAB))
        optimizer = make_optimizer(model)
        losses, correct, seen = [], 0, 0
        for epoch in range(args.epochs):
            hidden = None
            for start in range(0, inputs.shape[1], args.chunk):
                x = inputs[:, start:start + args.chunk]
                y = targets[:, start:start + args.chunk]
                if hidden is not None:
                    hidden = tuple(h.detach() for h in hidden) if isinstance(hidden, tuple) else hidden.detach()
                logits, hidden = model(x, hidden)
                loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), y.reshape(-1))
                optimizer.zero_grad()
                loss.backward()
                assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
                optimizer.step()
                losses.append(loss.item())
                preds = logits.detach().argmax(-1)
                correct += (preds == y).sum().item()
                seen += y.numel()
        assert losses[-1] < 0.25 * losses[0], (arch, losses[0], losses[-1])

        with torch.no_grad():
            ids, hidden, out = torch.tensor([[STOI["t"]]]), None, "t"
            for _ in range(len("the quick brown fox") - 1):
                logits, hidden = model(ids, hidden)
                ids = logits[:, -1:].argmax(-1)
                out += VOCAB[ids.item()]
        assert out == "the quick brown fox", (arch, out)
        print(f"k24 [{arch}]: TBPTT loss {losses[0]:.2f} -> {losses[-1]:.3f}, running acc {correct / seen:.2f}, sample '{out}'")
