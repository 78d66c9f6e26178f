"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 4

Same two-tower recommender with the DotScore autograd Function saving both
embeddings. The unit vectors for the ANN index are made from a no-grad clone
of the user vectors, and only that clone is normalised in place, so the
tensors DotScore saved are untouched and the BPR loss trains both towers.
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
    with torch.no_grad():
        unit_u = u.clone()
        unit_u.div_(unit_u.norm(dim=-1, keepdim=True).clamp_min(1e-6))
        ann_table[users] = unit_u
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

    proj_before = model.user_proj.weight.detach().clone()
    for _ in range(3):
        bpr_step(model, optimizer, users, pos_items, neg_items, ann_table)

    for name, p in model.named_parameters():
        assert p.grad is not None, name
    for w in (model.user_emb.weight, model.user_proj.weight,
              model.item_emb.weight, model.item_proj.weight):
        assert w.grad.abs().sum() > 0
    assert not torch.equal(model.user_proj.weight, proj_before)
    norms = ann_table[users].norm(dim=-1)
    assert torch.allclose(norms, torch.ones_like(norms), atol=1e-5)
    print("OK")


if __name__ == "__main__":
    main()
