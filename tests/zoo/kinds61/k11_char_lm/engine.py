import torch
import torch.nn as nn
import torch.nn.functional as F


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=16, hidden=64):
        super().__init__()
        self.vocab = vocab
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, ids):
        out, _ = self.lstm(self.emb(ids))
        return self.proj(out)


def forward_pass(model, batch, update):
    model.train(update)
    with torch.set_grad_enabled(update):
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, model.vocab), batch[:, 1:].reshape(-1))
    return loss


def apply_update(optimizer, loss, update, max_norm=1.0):
    if not update:
        return 0.0
    optimizer.zero_grad(set_to_none=True)
    loss.requires_grad_(True)
    loss.backward()
    params = [p for g in optimizer.param_groups for p in g["params"]]
    norm = torch.nn.utils.clip_grad_norm_(params, max_norm)
    optimizer.step()
    return norm.item()


def step(model, optimizer, batch, update):
    loss = forward_pass(model, batch, update)
    grad_norm = apply_update(optimizer, loss, update)
    return loss, grad_norm
