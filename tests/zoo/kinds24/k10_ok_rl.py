"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 10 (written for this check)

A CURL-style contrastive objective for pixel-free RL observations: a memory module registers
only buffers (a queue of past keys and an integer pointer advanced with
`self.ptr = (self.ptr + n) % self.size`), and its negatives are read as `queue.clone().detach()`
beside the attached query; keys come from a momentum encoder updated by EMA. The asserts show
every query-encoder parameter gets a nonzero gradient and moves, the queue is refilled, the
pointer advances, and the momentum encoder follows by EMA.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class KeyQueue(nn.Module):
    def __init__(self, dim, size):
        super().__init__()
        self.register_buffer("queue", F.normalize(torch.randn(size, dim), dim=1))
        self.size = size
        self.ptr = 0

    @torch.no_grad()
    def push(self, keys):
        n = keys.size(0)
        self.queue[self.ptr:self.ptr + n] = keys
        self.ptr = (self.ptr + n) % self.size

    def negatives(self):
        return self.queue.clone().detach()


def make_encoder(obs_dim=10, d=16):
    return nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, d))


def contrastive_loss(q, k, negs, tau=0.2):
    pos = (q * k).sum(1, keepdim=True)
    logits = torch.cat([pos, q @ negs.t()], dim=1) / tau
    return F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long))


nets = [make_encoder()]
nets.append(copy.deepcopy(nets[0]).requires_grad_(False))
query_enc, key_enc = nets
memory = KeyQueue(dim=16, size=64)
opt = torch.optim.Adam(query_enc.parameters(), lr=1e-3)

obs = torch.randn(16, 10)
view_a, view_b = obs + 0.05 * torch.randn_like(obs), obs + 0.05 * torch.randn_like(obs)
q = F.normalize(query_enc(view_a), dim=1)
with torch.no_grad():
    k = F.normalize(key_enc(view_b), dim=1)
loss = contrastive_loss(q, k, memory.negatives())
before = [p.detach().clone() for p in query_enc.parameters()]
key_before = [p.clone() for p in key_enc.parameters()]
opt.zero_grad()
loss.backward()
for p in query_enc.parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0
opt.step()
with torch.no_grad():
    for pk, pq in zip(key_enc.parameters(), query_enc.parameters()):
        pk.mul_(0.99).add_(pq, alpha=0.01)
memory.push(k)
assert all(not torch.equal(a, p) for a, p in zip(before, query_enc.parameters()))
assert all(not torch.equal(a, p) for a, p in zip(key_before, key_enc.parameters()))
assert memory.ptr == 16 and torch.equal(memory.queue[:16], k)
print("ok: the queue is buffers only; the query encoder trains")
