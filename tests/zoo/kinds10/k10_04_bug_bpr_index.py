"""
expect: GL005 53
dynamic: error
source: kinds check 10, kind 4

A two-tower recommender scores user/item pairs with a custom autograd Function
whose forward saves both embeddings via ctx.save_for_backward. After scoring,
the step L2-normalises the user vectors in place (`div_`) to refresh the ANN
index, which bumps the version of a tensor DotScore saved, so the BPR loss's
backward raises a RuntimeError.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_USERS, N_ITEMS, DIM = 20, 30, 8


class DotScore(torch.autograd.Function):
    @staticmethod
    def forward(ctx, user_vec, item_vec):
        ctx.save_for_backward(user_vec, item_vec)
        return (user_vec * item_vec).sum(dim=-1)

    @staticmethod
    def backward(ctx, grad_score):
        user_vec, item_vec = ctx.saved_tensors
        g = grad_score.unsqueeze(-1)
        return g * item_vec, g * user_vec


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.user_proj = nn.Linear(dim, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.item_proj = nn.Linear(dim, dim)

    def user_tower(self, users):
        return self.user_proj(self.user_emb(users))

    def item_tower(self, items):
        return self.item_proj(self.item_emb(items))


def bpr_step(model, optimizer, users, pos_items, neg_items, ann_table):
    u = model.user_tower(users)
    pos = DotScore.apply(u, model.item_tower(pos_items))
    neg = DotScore.apply(u, model.item_tower(neg_items))
    u.div_(u.norm(dim=-1, keepdim=True).clamp_min(1e-6))
    with torch.no_grad():
        ann_table[users] = u
    loss = -F.logsigmoid(pos - neg).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    model = TwoTower(N_USERS, N_ITEMS, DIM)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    ann_table = torch.zeros(N_USERS, DIM)
    users = torch.randint(0, N_USERS, (16,))
    pos_items = torch.randint(0, N_ITEMS, (16,))
    neg_items = torch.randint(0, N_ITEMS, (16,))

    raised = False
    try:
        bpr_step(model, optimizer, users, pos_items, neg_items, ann_table)
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "the saved user vectors were edited in place; backward should fail"
    print("OK")


if __name__ == "__main__":
    main()
