"""
expect: GL005 recmodel.py:24
dynamic: confirm
source: https://github.com/pytorch/pytorch/pull/45595

PyTorch added a warning to nn.Embedding: with max_norm set, forward renormalises
the weight rows in place, so any op that used Embedding.weight earlier in the
same graph sees its saved tensor changed. This two-tower recommender scores the
whole catalogue with user @ item_emb.weight.T (full softmax) and then looks up
positive/negative rows for a BPR term; that lookup rewrites the weight the
matmul saved. The asserts show backward fails with a version-counter error and
that taking a clone of the table first (the documented fix) trains fine.
"""
import torch
import torch.nn.functional as F

from recmodel import TwoTowerRec

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(g, n=32, n_users=50, n_items=40):
    users = torch.randint(0, n_users, (n,), generator=g)
    pos = (users * 7 + 3) % n_items            # a learnable user->item rule
    neg = torch.randint(0, n_items, (n,), generator=g)
    return users, pos, neg


def train(clone_table, steps=40):
    torch.manual_seed(0)
    model = TwoTowerRec(clone_table=clone_table)
    with torch.no_grad():
        model.item_emb.weight.mul_(3.0)       # start outside the ball so renorm fires
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(0)
    hist = []
    for _ in range(steps):
        users, pos, neg = make_batch(g)
        scores, bpr = model(users, pos, neg)
        loss = F.cross_entropy(scores, pos) + bpr
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    return hist


if __name__ == "__main__":
    err = None
    try:
        train(clone_table=False)
    except RuntimeError as e:
        err = str(e)
    print("buggy:", (err or "no error")[:120])
    assert err is not None and "inplace operation" in err

    hist = train(clone_table=True)
    print("fixed: loss", hist[0], "->", hist[-1])
    assert hist[-1] < hist[0] * 0.7
    print("OK")
