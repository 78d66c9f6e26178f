"""
expect: GL001 meters.py:13
dynamic: confirm
source: kind 9

A GRU sentence encoder feeds two heads: topic classification (main loss) and an auxiliary
sentence-length regressor whose loss goes through a running-average wrapper from another
module. The wrapper's __call__ evaluates the loss on pred.detach() and returns that value,
which is added to the training loss; backward runs through the topic term only, so the
length head's .grad is None and its weights never change. Calling the plain loss function
instead trains the length head.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from meters import AveragedLoss


class MultiTaskTagger(nn.Module):
    def __init__(self, vocab=100, dim=16, topics=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.topic_head = nn.Linear(dim, topics)
        self.length_head = nn.Linear(dim, 1)

    def forward(self, tokens):
        _, h = self.gru(self.embed(tokens))
        h = h[-1]
        return self.topic_head(h), self.length_head(h).squeeze(-1)


def run(length_term, steps=3):
    torch.manual_seed(0)
    tokens = torch.randint(1, 100, (24, 10))
    lengths = torch.randint(3, 11, (24,)).float()
    topics = torch.randint(0, 4, (24,))
    model = MultiTaskTagger()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model.length_head.weight.clone()
    for _ in range(steps):
        topic_logits, length_pred = model(tokens)
        loss = F.cross_entropy(topic_logits, topics) + 0.1 * length_term(length_pred, lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, before


def main():
    meter = AveragedLoss(F.mse_loss, "length_mse")
    model, before = run(meter)
    assert model.length_head.weight.grad is None
    assert torch.equal(model.length_head.weight, before)
    assert meter.count == 3

    model, before = run(F.mse_loss)
    assert not torch.equal(model.length_head.weight, before)
    print("ok: length head never trained through the wrapper (avg %.2f)" % meter.average)


if __name__ == "__main__":
    main()
