"""expect: GL001 21
dynamic: confirm

A two-tower recommender scores user-item pairs and, in its forward pass, detaches the item tower's output whenever the model is training. The optimizer holds the item tower, but the `if self.training:` detach cuts it out of every training graph, so its embeddings and projection never receive a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTower(nn.Module):
    def __init__(self, n_users=50, n_items=80, dim=16):
        super().__init__()
        self.user_tower = nn.Sequential(nn.Embedding(n_users, dim), nn.Linear(dim, dim))
        self.item_tower = nn.Sequential(nn.Embedding(n_items, dim), nn.Linear(dim, dim))

    def forward(self, users, items):
        u = self.user_tower(users)
        v = self.item_tower(items)
        if self.training:
            v = v.detach()
        return (u * v).sum(dim=-1)


def main():
    torch.manual_seed(0)
    model = TwoTower()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    users = torch.randint(0, 50, (256,))
    items = torch.randint(0, 80, (256,))
    clicked = ((users + items) % 3 == 0).float()
    item_before = [p.detach().clone() for p in model.item_tower.parameters()]

    model.train()
    for _ in range(10):
        loss = F.binary_cross_entropy_with_logits(model(users, items), clicked)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is None for p in model.item_tower.parameters())
        assert all(p.grad is not None for p in model.user_tower.parameters())
        opt.step()

    for before, p in zip(item_before, model.item_tower.parameters()):
        assert torch.equal(before, p), "item tower should never move"
    print("B1 ok: item tower starved by training-only detach")


if __name__ == "__main__":
    main()
