"""
expect: GL001 memory.py:27
dynamic: confirm
source: https://github.com/twitter-research/tgn/issues/8

A temporal graph network for link prediction keeps a memory vector per node, updated
by a trainable GRU from interaction messages, and detaches the memory after every
batch so graphs do not chain across batches. The model here runs in the
memory_update_at_start=False mode: each batch's loss uses the stored (already
detached) memory, and the GRU update for the batch runs after the loss and is cut
by detach_memory() before any later loss can use it. As the TGN authors note in the
linked issue, in this mode the memory modules get no gradient: the GRU updater sits
in the optimizer, its .grad stays None and its weights never move. With
memory_update_at_start=True the stored messages are re-applied through the GRU
inside the batch's graph, and the asserts show the GRU then trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import Memory

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, MEM, EDGE = 12, 8, 4


class TGN(nn.Module):
    def __init__(self, update_at_start):
        super().__init__()
        self.update_at_start = update_at_start
        self.memory = Memory(N_NODES, MEM)
        self.memory_updater = nn.GRUCell(2 * MEM + EDGE, MEM)
        self.embedding = nn.Linear(MEM, MEM)
        self.link_head = nn.Sequential(nn.Linear(2 * MEM, 16), nn.ReLU(), nn.Linear(16, 1))

    def updated_memory(self):
        mem = self.memory.get_memory(torch.arange(N_NODES))
        if not self.memory.messages:
            return mem
        nodes = torch.tensor(sorted(self.memory.messages))
        msgs = torch.stack([self.memory.messages[n] for n in nodes.tolist()])
        new = self.memory_updater(msgs, mem[nodes])
        mem = mem.clone()
        mem[nodes] = new
        return mem

    def score(self, mem, src, dst):
        return self.link_head(torch.cat([self.embedding(mem[src]), self.embedding(mem[dst])], -1)).squeeze(-1)

    def batch_loss(self, src, dst, neg, edge_feat):
        mem = self.updated_memory() if self.update_at_start else self.memory.get_memory(torch.arange(N_NODES))
        pos, negs = self.score(mem, src, dst), self.score(mem, src, neg)
        loss = F.binary_cross_entropy_with_logits(pos, torch.ones_like(pos)) + \
            F.binary_cross_entropy_with_logits(negs, torch.zeros_like(negs))
        msgs = torch.cat([mem[src], mem[dst], edge_feat], -1)
        if self.update_at_start:
            self.memory.set_memory(torch.arange(N_NODES), mem)
            self.memory.messages = {}
            self.memory.store_raw_messages(src, msgs)
        else:
            self.memory.set_memory(src, self.memory_updater(msgs, mem[src]))
        return loss


def train(update_at_start, batches=8):
    torch.manual_seed(1)
    model = TGN(update_at_start)
    trainable = [p for n, p in model.named_parameters() if not n.startswith("memory.")]
    opt = torch.optim.Adam(trainable, lr=1e-2)
    gru_start = [p.detach().clone() for p in model.memory_updater.parameters()]
    for _ in range(batches):
        src = torch.randperm(N_NODES)[:5]
        dst, neg = torch.randint(0, N_NODES, (5,)), torch.randint(0, N_NODES, (5,))
        loss = model.batch_loss(src, dst, neg, torch.randn(5, EDGE))
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.memory.detach_memory()
    return model, gru_start


model, gru_start = train(update_at_start=False)
gru = list(model.memory_updater.parameters())
assert all(p.grad is None for p in gru), "the memory updater should get no gradient"
assert all(torch.equal(s, p) for s, p in zip(gru_start, gru))

model, gru_start = train(update_at_start=True)
gru = list(model.memory_updater.parameters())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in gru)
assert any(not torch.equal(s, p) for s, p in zip(gru_start, gru))
print("update-at-end memory is cut before any loss sees it; update-at-start trains the GRU")
