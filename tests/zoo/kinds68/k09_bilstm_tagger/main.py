"""
expect: GL001 model.py:14
dynamic: confirm
source: none, invented

A BiLSTM part-of-speech tagger. The forward packs the padded batch, runs the LSTM, unpacks it and calls the
model's `emissions` method, which takes the LSTM output through `.data` before dropout and the tag
projection (the author confused the padded tensor with a PackedSequence, whose `.data` field is the flat
payload). On a plain tensor `.data` is a copy cut from the graph, so the LSTM and the embedding get no
gradient and only the projection learns. The asserts show the LSTM and embedding grads are None and their
weights unchanged; V2, which projects the live output, trains them.
"""
import copy

import torch
import torch.nn.functional as F

from model import BiLSTMTagger, BiLSTMTaggerV2


def make_batch(n=12, max_len=9, vocab=40, num_tags=6):
    lengths = torch.randint(3, max_len + 1, (n,))
    tokens = torch.randint(1, vocab, (n, max_len))
    mask = torch.arange(max_len)[None, :] < lengths[:, None]
    tokens = tokens * mask
    tags = (tokens % num_tags) * mask - (~mask).long() * 100
    return tokens, lengths, tags


def fit(cls, steps=4):
    torch.manual_seed(0)
    tokens, lengths, tags = make_batch()
    model = cls(vocab_size=40, num_tags=6)
    before = copy.deepcopy(model.state_dict())
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        scores = model(tokens, lengths)
        loss = F.cross_entropy(scores.reshape(-1, 6), tags.reshape(-1), ignore_index=-100)
        loss.backward()
        grads = {n: p.grad for n, p in model.named_parameters()}
        opt.step()
    return grads, before, model.state_dict()


if __name__ == "__main__":
    torch.set_num_threads(1)
    grads, before, after = fit(BiLSTMTagger)
    assert grads["lstm.weight_ih_l0"] is None and grads["embedding.weight"] is None
    assert grads["hidden2tag.weight"] is not None
    assert torch.equal(before["lstm.weight_hh_l0_reverse"], after["lstm.weight_hh_l0_reverse"])
    grads, before, after = fit(BiLSTMTaggerV2)
    assert grads["lstm.weight_ih_l0"].abs().sum() > 0 and grads["embedding.weight"].abs().sum() > 0
    assert not torch.equal(before["lstm.weight_hh_l0_reverse"], after["lstm.weight_hh_l0_reverse"])
    print("ok: the .data in emissions freezes the LSTM; V2 trains it")
