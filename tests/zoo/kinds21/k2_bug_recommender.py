"""
expect: GL002 38
dynamic: confirm
source: kinds check 21, kind 2 (written for this check)

BPR matrix factorisation with a content tower: item features are mapped by a small
tower and aligned to the item embeddings by an auxiliary loss meant to train the
tower (for cold-start items). A helper sums the dict of terms and logs each one,
but it adds the logged Python number instead of the tensor, so the tower gets no
gradient. The asserts show the tower's grads are None, that all gradients are the
same with the alignment weight 0 and 1, and that summing the tensors trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MFWithContent(nn.Module):
    def __init__(self, n_users, n_items, n_feat, dim=16):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.tower = nn.Sequential(nn.Linear(n_feat, 32), nn.ReLU(), nn.Linear(32, dim))

    def loss_terms(self, u, pos, neg, item_feat):
        eu, ep, en = self.user(u), self.item(pos), self.item(neg)
        bpr = -F.logsigmoid((eu * ep).sum(-1) - (eu * en).sum(-1)).mean()
        content = self.tower(item_feat[pos])
        align = 1 - F.cosine_similarity(content, ep, dim=-1).mean()
        l2 = (eu.pow(2).sum() + ep.pow(2).sum() + en.pow(2).sum()) / len(u)
        return {"bpr": bpr, "align": align, "l2": l2}


def combine_and_log(terms, weights, history):
    total = terms["bpr"]
    history.setdefault("bpr", []).append(terms["bpr"].item())
    for name, w in weights.items():
        value = terms[name].item()
        history.setdefault(name, []).append(value)
        total = total + w * value
    return total


def grads(model, batch, w_align):
    model.zero_grad()
    terms = model.loss_terms(*batch)
    combine_and_log(terms, {"align": w_align, "l2": 1e-4}, {}).backward()
    return [None if p.grad is None else p.grad.clone() for p in model.parameters()]


if __name__ == "__main__":
    torch.manual_seed(4)
    n_users, n_items, n_feat, B = 30, 50, 12, 64
    item_feat = torch.randn(n_items, n_feat)
    batch = (torch.randint(0, n_users, (B,)), torch.randint(0, n_items, (B,)),
             torch.randint(0, n_items, (B,)), item_feat)
    model = MFWithContent(n_users, n_items, n_feat)
    opt, history = torch.optim.Adam(model.parameters(), lr=1e-2), {}
    tower0 = [p.detach().clone() for p in model.tower.parameters()]
    for _ in range(5):
        opt.zero_grad()
        combine_and_log(model.loss_terms(*batch), {"align": 1.0, "l2": 1e-4}, history).backward()
        opt.step()
    assert all(p.grad is None for p in model.tower.parameters())
    assert all(torch.equal(p, q) for p, q in zip(model.tower.parameters(), tower0))
    g0, g1 = grads(model, batch, 0.0), grads(model, batch, 1.0)
    assert all((a is None and b is None) or torch.equal(a, b) for a, b in zip(g0, g1))
    # fixed variant: summing the tensors trains the tower
    model.zero_grad()
    terms = model.loss_terms(*batch)
    (terms["bpr"] + terms["align"] + 1e-4 * terms["l2"]).backward()
    assert all(p.grad.abs().sum() > 0 for p in model.tower.parameters())
    print("ok: the alignment term is added as a float; the content tower is starved")
