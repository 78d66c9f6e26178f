"""
expect: GL004 main.py:67, GL005 main.py:70
dynamic: confirm
source: https://github.com/verma-rishu/Analysis_TNNs/blob/3edfa4d80bb9dd102abd84a27cb2fc297e3990eb/train_test.py

A temporal-GNN forecasting script (covid cases per region, EvolveGCN-O) trains for many
epochs over a list of graph snapshots, summing the per-snapshot MSE and calling
`cost.backward(retain_graph=True)` once per epoch, then `optimizer.step()`. The EvolveGCN-O
layer it uses (the pytorch_geometric_temporal version patched in March 2023, rebuilt in
evolve_gcn.py) keeps its evolved GCN weight on the module (`self.weight`) and feeds it back
into its GRU at the next call; the script resets it only before testing. So the graph of
epoch k hangs off the graph of every earlier epoch, and retain_graph=True, which silences
"backward through the graph a second time", keeps that whole chain alive. The forward-only
probe shows the reachable graph growing by one epoch of nodes per epoch, and the epoch-1
graph contains epoch 0's last evolved-weight node. Because RMSprop updates the GRU weights
in place between the two backward passes, epoch 1's backward walks into epoch-0 nodes whose
saved GRU weights were stepped and raises "modified by an inplace operation". The intended
loop restarts the evolution from the initial weight every epoch: the graph keeps one size,
no retain_graph is needed, and the loss falls.
"""
import torch

from evolve_gcn import RecurrentEvolveGCN

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, N_FEAT, N_SNAPSHOTS = 20, 8, 6


def make_snapshots():
    snaps = []
    for _ in range(N_SNAPSHOTS):
        adj = (torch.rand(N_NODES, N_NODES) < 0.2).float()
        adj = ((adj + adj.t()) > 0).float() + torch.eye(N_NODES)
        deg = adj.sum(1)
        a_hat = adj / torch.sqrt(deg[:, None] * deg[None, :])
        x = torch.randn(N_NODES, N_FEAT)
        y = torch.tanh(a_hat @ x[:, :1]) + 0.05 * torch.randn(N_NODES, 1)
        snaps.append((x, a_hat, y))
    return snaps


def reachable_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return seen


def train_as_reported(model, snapshots, epochs):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    graphs, carried = [], []
    for epoch in range(epochs):
        cost = 0
        for t, (x, a_hat, y) in enumerate(snapshots):
            y_hat = model(x, a_hat)
            cost = cost + torch.mean((y_hat - y) ** 2)
        cost = cost / (t + 1)
        graphs.append(reachable_nodes(cost))
        carried.append(model.recurrent.weight.grad_fn)
        try:
            cost.backward(retain_graph=True)
        except RuntimeError as err:
            return graphs, carried, epoch, str(err)
        optimizer.step()
        optimizer.zero_grad()
    return graphs, carried, None, ""


def growth_probe(model, snapshots, epochs):
    sizes = []
    for _ in range(epochs):
        cost = sum(torch.mean((model(x, a) - y) ** 2) for x, a, y in snapshots)
        sizes.append(len(reachable_nodes(cost)))
    return sizes


def train_with_reset(model, snapshots, epochs):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    sizes, losses = [], []
    for _ in range(epochs):
        model.recurrent.reset_evolution()
        cost = sum(torch.mean((model(x, a) - y) ** 2) for x, a, y in snapshots) / len(snapshots)
        sizes.append(len(reachable_nodes(cost)))
        optimizer.zero_grad()
        cost.backward()
        assert model.recurrent.initial_weight.grad.abs().sum() > 0
        optimizer.step()
        losses.append(cost.item())
    return sizes, losses


snapshots = make_snapshots()

# Reported loop: epoch 1's graph contains all of epoch 0's, and its backward fails.
model = RecurrentEvolveGCN(N_FEAT)
graphs, carried, failed_epoch, message = train_as_reported(model, snapshots, epochs=5)
assert failed_epoch == 1, failed_epoch
assert "modified by an inplace operation" in message
assert carried[0] in graphs[1]  # epoch 0's last evolved-weight node is inside epoch 1's graph
assert len(graphs[1]) > 1.5 * len(graphs[0])
print("reported loop: graph sizes per epoch", [len(g) for g in graphs],
      "-> backward of epoch 1 reaches epoch-0 nodes whose saved GRU weights were stepped")

# Without any optimizer step the carried graph just keeps growing, epoch after epoch.
probe = RecurrentEvolveGCN(N_FEAT)
sizes = growth_probe(probe, snapshots, epochs=4)
steps = [b - a for a, b in zip(sizes, sizes[1:])]
assert steps[0] > 0 and len(set(steps)) == 1  # one more epoch of nodes, every epoch
assert sizes[3] > 2.5 * sizes[0]
print("forward-only probe: reachable nodes per epoch", sizes)

# Intended loop: restart the evolution every epoch, plain backward, constant graph size.
fixed = RecurrentEvolveGCN(N_FEAT)
sizes, losses = train_with_reset(fixed, snapshots, epochs=40)
assert len(set(sizes)) == 1
assert losses[-1] < 0.8 * losses[0], (losses[0], losses[-1])
print(f"reset each epoch: graph size {sizes[0]} every epoch, loss {losses[0]:.3f} -> {losses[-1]:.3f}")
