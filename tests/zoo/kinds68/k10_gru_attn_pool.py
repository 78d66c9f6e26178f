"""
expect: none
dynamic: dismiss
source: none, invented

A GRU review classifier with attention pooling. The forward unpacks the GRU output (padding positions come
back as exact zeros) and calls the model's `attend` method, which reads `out.data` only to build the padding
mask for the attention scores (`masked_fill` with -inf). The scores, the softmax weights and the pooled vector
are all computed from the live GRU output, so the recurrent layer and the embedding are trained; the `.data`
copy decides only which positions are masked. The asserts show every parameter receives a non-zero gradient,
the GRU weights move, and padded positions get zero attention.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class ReviewClassifier(nn.Module):
    def __init__(self, vocab=60, emb=16, hidden=20, n_classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True)
        self.score = nn.Linear(hidden, 1)
        self.head = nn.Linear(hidden, n_classes)

    def attend(self, out):
        pad_mask = out.data.abs().sum(-1).eq(0)
        scores = self.score(out).squeeze(-1).masked_fill(pad_mask, float("-inf"))
        weights = scores.softmax(-1)
        return (weights.unsqueeze(-1) * out).sum(1), weights

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.gru(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        pooled, weights = self.attend(out)
        return self.head(pooled), weights


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    n, max_len = 10, 8
    lengths = torch.randint(2, max_len + 1, (n,))
    lengths[0] = max_len
    valid = torch.arange(max_len)[None, :] < lengths[:, None]
    tokens = torch.randint(1, 60, (n, max_len)) * valid
    labels = torch.randint(0, 3, (n,))
    model = ReviewClassifier()
    before = copy.deepcopy(model.state_dict())
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(4):
        opt.zero_grad()
        logits, weights = model(tokens, lengths)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
    assert torch.all(weights[~valid] == 0)
    after = model.state_dict()
    assert not torch.equal(before["gru.weight_ih_l0"], after["gru.weight_ih_l0"])
    assert not torch.equal(before["embedding.weight"], after["embedding.weight"])
    print("ok: GRU and embedding train; .data only builds the padding mask")


if __name__ == "__main__":
    main()
