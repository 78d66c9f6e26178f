"""
expect: GL002 ranking_loss.py:20
dynamic: confirm
source: none, invented

Training loop for a two-tower recommender (user tower, item embeddings) trained with `ranking_loss` from
ranking_loss.py, which adds a NumPy-computed embedding-spread regulariser to the BPR loss. Because the regulariser
is computed from detached NumPy arrays it is a Python float, so it has no gradient and the regulariser does
nothing to training. The asserts show the gradients of the total loss equal those of the task loss alone.
"""
import torch
import torch.nn as nn

from ranking_loss import ranking_loss


class TwoTower(nn.Module):
    def __init__(self, n_users=100, n_items=200, dim=16):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.user_mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.item_emb = nn.Embedding(n_items, dim)

    def forward(self, users, pos, neg):
        u = self.user_mlp(self.user_emb(users))
        return (u * self.item_emb(pos)).sum(-1), (u * self.item_emb(neg)).sum(-1), u


def main():
    torch.manual_seed(0)
    model = TwoTower()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        users = torch.randint(0, 100, (32,))
        pos = torch.randint(0, 200, (32,))
        neg = torch.randint(0, 200, (32,))
        pos_s, neg_s, user_vecs = model(users, pos, neg)
        total, task = ranking_loss(pos_s, neg_s, user_vecs)
        assert total.item() != task.item(), "regulariser should change the reported value"

        grads_total = torch.autograd.grad(total, list(model.parameters()), retain_graph=True, allow_unused=True)
        grads_task = torch.autograd.grad(task, list(model.parameters()), retain_graph=True, allow_unused=True)
        for gt, gk in zip(grads_total, grads_task):
            assert (gt is None and gk is None) or torch.equal(gt, gk), "regulariser contributed gradient?"

        opt.zero_grad()
        total.backward()
        opt.step()
    print("bug confirmed: NumPy regulariser adds no gradient")


if __name__ == "__main__":
    main()
