"""
expect: GL005 34
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/30899

The report: switching on max_norm in an nn.Embedding makes an otherwise working model
fail in backward with a confusing autograd error. The cause (documented in the
nn.Embedding note) is that forward() renormalises the looked-up rows of .weight in
place, so any earlier op that saved .weight is invalidated. Here a retrieval
recommender scores the whole item catalogue with user @ item_emb.weight.T for a softmax
loss and then looks up sampled negatives for a BPR term; the lookup's renorm is the
hidden in-place edit. The asserts show the backward failure and that computing the
catalogue scores after the lookups trains normally.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
N_USERS, N_ITEMS, DIM = 30, 40, 16


class Retriever(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM, max_norm=1.0)

    def loss(self, users, pos, neg):
        u = self.user_emb(users)
        catalogue_scores = u @ self.item_emb.weight.t()
        softmax_loss = F.cross_entropy(catalogue_scores, pos)
        neg_vecs = self.item_emb(neg)
        pos_vecs = self.item_emb(pos)
        bpr = -F.logsigmoid((u * pos_vecs).sum(-1) - (u * neg_vecs).sum(-1)).mean()
        return softmax_loss + bpr


class FixedRetriever(Retriever):
    def loss(self, users, pos, neg):
        u = self.user_emb(users)
        neg_vecs = self.item_emb(neg)
        pos_vecs = self.item_emb(pos)
        catalogue_scores = u @ self.item_emb.weight.t()   # after the in-place renorms
        softmax_loss = F.cross_entropy(catalogue_scores, pos)
        bpr = -F.logsigmoid((u * pos_vecs).sum(-1) - (u * neg_vecs).sum(-1)).mean()
        return softmax_loss + bpr


def batch(n=16):
    return torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,)), torch.randint(0, N_ITEMS, (n,))


model = Retriever()
try:
    model.loss(*batch()).backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

fixed = FixedRetriever()
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
users, pos, neg = batch(64)
first = fixed.loss(users, pos, neg).item()
for _ in range(30):
    opt.zero_grad()
    fixed.loss(users, pos, neg).backward()
    opt.step()
assert fixed.loss(users, pos, neg).item() < first
print("ok: max_norm lookup renormalises weight in place after it was saved")
