"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 7

A TransE-style knowledge-graph model adds a norm regulariser (a module
whose forward takes any number of tensors) over the head, relation and
tail embeddings it looked up. The lookups are passed attached, so the
penalty shrinks the embeddings it is meant to shrink.
"""
import torch
import torch.nn as nn


class NormPenalty(nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def forward(self, *tensors):
        total = 0.0
        for t in tensors:
            total = total + t.norm(dim=-1).mean()
        return self.weight * total


class TransE(nn.Module):
    def __init__(self, n_ent, n_rel, d, reg_weight):
        super().__init__()
        self.ent = nn.Embedding(n_ent, d)
        self.rel = nn.Embedding(n_rel, d)
        self.reg = NormPenalty(reg_weight)

    def loss(self, h_ids, r_ids, t_ids, t_neg):
        h = self.ent(h_ids)
        r = self.rel(r_ids)
        t = self.ent(t_ids)
        tn = self.ent(t_neg)
        pos = (h + r - t).norm(dim=-1)
        neg = (h + r - tn).norm(dim=-1)
        margin = torch.relu(1.0 + pos - neg).mean()
        return margin + self.reg(h, r, t)


def grads(reg_weight):
    torch.manual_seed(0)
    kg = TransE(20, 4, 8, reg_weight)
    h_ids = torch.randint(0, 20, (12,))
    r_ids = torch.randint(0, 4, (12,))
    t_ids = torch.randint(0, 20, (12,))
    t_neg = torch.randint(0, 20, (12,))
    loss = kg.loss(h_ids, r_ids, t_ids, t_neg)
    loss.backward()
    return kg.ent.weight.grad.clone(), kg.rel.weight.grad.clone()


e_on, r_on = grads(0.1)
e_off, r_off = grads(0.0)
assert not torch.allclose(e_on, e_off)
assert not torch.allclose(r_on, r_off)
print("ok")
