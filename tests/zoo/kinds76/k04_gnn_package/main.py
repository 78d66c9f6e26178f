"""
expect: GL003 main.py:53
dynamic: confirm
source: none, invented

Graphs / node classification on a synthetic citation graph. The script imports
`gnnkit.layers`; importing any submodule first runs the package's `__init__.py`,
which calls `torch.set_grad_enabled(False)` at its top level (the package was written
for an inference server). The script's training step then builds its loss with
recording off, so `loss.backward()` raises "element 0 of tensors does not require
grad". The asserts catch that error around the buggy call, check that grad mode is
off right after the import, and show that once grad mode is switched back on the same
training step runs and the loss falls over a few epochs.
"""
import torch
import torch.nn.functional as F

from gnnkit.layers import GCN, normalise_adjacency


def make_graph(n=120, n_classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, n_classes, (n,), generator=g)
    same = (labels[:, None] == labels[None, :]).float()
    probs = 0.15 * same + 0.01
    adj = (torch.rand(n, n, generator=g) < probs).float()
    adj = ((adj + adj.T) > 0).float().fill_diagonal_(0)
    feats = torch.randn(n, 16, generator=g) + F.one_hot(labels, 16).float()
    train_mask = torch.rand(n, generator=g) < 0.5
    return feats, normalise_adjacency(adj), labels, train_mask


def train_step(model, optimizer, feats, adj, labels, mask):
    model.train()
    optimizer.zero_grad()
    out = model(feats, adj)
    loss = F.cross_entropy(out[mask], labels[mask])
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    assert not torch.is_grad_enabled()  # side effect of importing gnnkit
    torch.manual_seed(0)
    feats, adj, labels, mask = make_graph()
    model = GCN(16, 32, 3)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    before = model.conv1.lin.weight.detach().clone()

    error = None
    try:
        train_step(model, optimizer, feats, adj, labels, mask)
    except RuntimeError as exc:
        error = exc
    assert error is not None and "does not require grad" in str(error)
    assert torch.equal(model.conv1.lin.weight.detach(), before)

    # fixed: switch recording back on before training
    torch.set_grad_enabled(True)
    losses = [train_step(model, optimizer, feats, adj, labels, mask) for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0]
    assert not torch.equal(model.conv1.lin.weight.detach(), before)
    print(f"fixed: {losses[0]:.3f} -> {losses[-1]:.3f}")
    print("OK")


if __name__ == "__main__":
    main()
