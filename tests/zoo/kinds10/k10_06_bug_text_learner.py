"""
expect: GL001 41
dynamic: confirm
source: kinds check 10, kind 6

A plain Learner object wraps a GRU sentiment classifier, builds Adam over all
of its parameters and runs masked mean pooling in its step. The pooled
sentence vector is detached before the linear head, so the cross-entropy loss
only reaches the head: the embedding table and GRU never get a gradient and
never move, although they are in the optimizer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, PAD = 50, 0


class SentimentModel(nn.Module):
    def __init__(self, vocab, emb_dim=16, hidden=24, n_classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim, padding_idx=PAD)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_classes)


class Learner:
    def __init__(self, model, lr=1e-2, max_grad_norm=1.0):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.max_grad_norm = max_grad_norm
        self.history = []

    def step(self, tokens, labels):
        self.model.train()
        mask = (tokens != PAD).unsqueeze(-1).float()
        outputs, _ = self.model.encoder(self.model.embed(tokens))
        pooled = (outputs * mask).sum(dim=1) / mask.sum(dim=1).clamp_min(1.0)
        features = pooled.detach()
        logits = self.model.head(features)
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()


def make_batch(batch=6, max_len=9):
    lengths = torch.randint(3, max_len + 1, (batch,))
    tokens = torch.randint(1, VOCAB, (batch, max_len))
    tokens[torch.arange(max_len).unsqueeze(0) >= lengths.unsqueeze(1)] = PAD
    return tokens, torch.randint(0, 3, (batch,))


def main():
    model = SentimentModel(VOCAB)
    learner = Learner(model)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    for _ in range(4):
        learner.step(*make_batch())

    for name, p in model.named_parameters():
        if name.startswith("head."):
            assert p.grad is not None and not torch.equal(p, before[name]), name
        else:
            assert p.grad is None, name
            assert torch.equal(p, before[name]), name
    print("OK")


if __name__ == "__main__":
    main()
