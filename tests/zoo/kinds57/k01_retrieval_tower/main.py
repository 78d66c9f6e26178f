"""
expect: GL001 main.py:43
dynamic: confirm
source: none, invented

A two-tower retrieval model is trained with an in-batch softmax. To "share the exact normalisation used
in serving", the training loop takes the positive items' vectors from `encode_for_index`, the method that
builds the ANN index and is decorated with `@torch.no_grad()`. The item side of every logit therefore
carries no graph: the optimizer holds the whole model but the item tower and the item embedding table
never receive a gradient, while the model's own `forward` would have recorded the same layers. The
asserts show the item-tower weights and the item embedding table identical after training on the index
path, and both changing when the same loop uses `model(users, items)` instead.
"""
import torch
import torch.nn.functional as F

from towers import TwoTowerRecommender

torch.manual_seed(0)
torch.set_num_threads(1)

N_USERS, N_ITEMS = 200, 300


def make_interactions(n=2048):
    users = torch.randint(0, N_USERS, (n,))
    items = (users * 7 + torch.randint(0, 3, (n,))) % N_ITEMS
    return users, items


def train(use_index_path, steps=40, batch=128):
    torch.manual_seed(0)
    model = TwoTowerRecommender(N_USERS, N_ITEMS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    users, items = make_interactions()
    item_w0 = model.item_tower[0].weight.detach().clone()
    table0 = model.item_emb.weight.detach().clone()
    temperature = 0.1
    for step in range(steps):
        idx = torch.randint(0, users.numel(), (batch,))
        u, i = users[idx], items[idx]
        if use_index_path:
            item_vecs = model.encode_for_index(i)
            logits = model.user_vectors(u) @ item_vecs.T / temperature
        else:
            logits = model(u, i) / temperature
        loss = F.cross_entropy(logits, torch.arange(batch))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    item_moved = not torch.equal(model.item_tower[0].weight, item_w0)
    table_moved = not torch.equal(model.item_emb.weight, table0)
    return model, item_moved, table_moved, loss.item()


if __name__ == "__main__":
    model, item_moved, table_moved, final = train(use_index_path=True)
    assert model.item_tower[0].weight.grad is None
    assert not item_moved and not table_moved
    assert model.user_tower[0].weight.grad is not None

    model, item_moved, table_moved, final_ref = train(use_index_path=False)
    assert item_moved and table_moved
    assert model.item_tower[0].weight.grad.abs().sum() > 0
    print(f"index path: item tower unchanged; forward path: item tower trains (loss {final_ref:.3f})")
