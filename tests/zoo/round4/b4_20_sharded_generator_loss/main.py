"""expect: none
dynamic: none
source: https://github.com/OpenNMT/OpenNMT-py/issues/443

Memory-saving sharded loss from an NMT toolkit (loss_shards.py): the
decoder output is split along time, and each chunk is re-created as a new leaf
(`.data.clone()` with requires_grad switched on) so the generator projection and
NLL for one shard at a time can be built and backpropagated. After all shards,
`torch.autograd.backward(inputs, grads)` feeds the chunk leaves' accumulated
.grad back into the real decoder output. The "detached" leaves are intentional:
the gradients are handed over explicitly, and the parameter gradients equal those
of the ordinary unsharded loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from loss_shards import shards


class TinyDecoder(nn.Module):
    def __init__(self, vocab=25, dim=12):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim)
        self.generator = nn.Sequential(nn.Linear(dim, vocab), nn.LogSoftmax(dim=-1))

    def forward(self, tgt_in):
        out, _ = self.rnn(self.embed(tgt_in))
        return out


class ShardedNMTLoss:
    def __init__(self, generator, pad_idx=0):
        self.generator, self.pad_idx = generator, pad_idx

    def _compute_loss(self, output, target):
        scores = self.generator(output.view(-1, output.size(2)))
        return F.nll_loss(scores, target.view(-1), ignore_index=self.pad_idx, reduction="sum")

    def __call__(self, output, target, normalization, shard_size):
        total = 0.0
        state = {"output": output, "target": target}
        for shard in shards(state, shard_size):
            loss = self._compute_loss(**shard)
            loss.div(float(normalization)).backward()
            total += loss.item()
        return total


def main():
    torch.manual_seed(0)
    model = TinyDecoder()
    reference = copy.deepcopy(model)
    tgt = torch.randint(1, 25, (9, 3))
    tgt_in, tgt_out = tgt[:-1], tgt[1:]
    norm = tgt_out.ne(0).sum()

    model.zero_grad()
    out = model(tgt_in)
    ShardedNMTLoss(model.generator)(out, tgt_out, norm, shard_size=3)

    ref_out = reference(tgt_in)
    ref_scores = reference.generator(ref_out.view(-1, ref_out.size(2)))
    (F.nll_loss(ref_scores, tgt_out.reshape(-1), ignore_index=0, reduction="sum") / norm).backward()

    for (name, p), q in zip(model.named_parameters(), reference.parameters()):
        assert p.grad is not None, name
        assert torch.allclose(p.grad, q.grad, atol=1e-6), name
    print("sharded loss reproduces the full-loss gradients for every parameter")


if __name__ == "__main__":
    main()
