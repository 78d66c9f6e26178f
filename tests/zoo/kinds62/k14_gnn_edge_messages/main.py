"""
expect: GL001 layers.py:16
dynamic: confirm
source: none, invented

Node classification on random graphs whose labels depend on the neighbourhood (a node's class is decided by
the summed features of the nodes pointing to it). Each NodeUpdateBlock in layers.py computes messages with a
small MLP in its messages() helper, which returns `self.message_mlp(x[src]).data`; the aggregated messages are
the only way message_mlp reaches the loss, so its weights get no gradient and stay at their initial values,
while the update layer, the input layer and the classifier still train on the node's own features. The asserts
show every message_mlp parameter has grad None after backward and is unchanged after training; the block in
main.py whose messages() keeps the graph gives message_mlp gradients and reaches a better training accuracy.
"""
import torch
import torch.nn.functional as F

from layers import NodeClassifier, NodeUpdateBlock

torch.manual_seed(0)
torch.set_num_threads(1)

IN_DIM, HIDDEN, N_CLASSES = 8, 32, 3


class NeighbourMessageBlock(NodeUpdateBlock):
    def messages(self, x, edge_index):
        return self.message_mlp(x[edge_index[0]])


def random_graph(n_nodes=200, n_edges=800):
    x = torch.randn(n_nodes, IN_DIM)
    edge_index = torch.randint(0, n_nodes, (2, n_edges))
    neigh = torch.zeros(n_nodes, IN_DIM).index_add(0, edge_index[1], x[edge_index[0]])
    score = neigh[:, :N_CLASSES] - neigh[:, N_CLASSES:2 * N_CLASSES]
    return x, edge_index, score.argmax(dim=1)


GRAPHS = [random_graph() for _ in range(8)]


def train(block_cls, epochs=60):
    torch.manual_seed(0)
    model = NodeClassifier(IN_DIM, HIDDEN, N_CLASSES, block_cls)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    msg_params = [p for b in model.blocks for p in b.message_mlp.parameters()]
    start = [p.detach().clone() for p in msg_params]
    first_grads = None
    for epoch in range(epochs):
        for x, edge_index, y in GRAPHS:
            loss = F.cross_entropy(model(x, edge_index), y)
            opt.zero_grad()
            loss.backward()
            if first_grads is None:
                first_grads = [p.grad for p in msg_params]
            opt.step()
    correct = total = 0
    with torch.no_grad():
        for x, edge_index, y in GRAPHS:
            correct += (model(x, edge_index).argmax(1) == y).sum().item()
            total += y.numel()
    unchanged = [torch.equal(p, p0) for p, p0 in zip(msg_params, start)]
    return first_grads, unchanged, correct / total


def main():
    grads, unchanged, acc_plain = train(NodeUpdateBlock)
    assert all(g is None for g in grads)
    assert all(unchanged)

    grads, unchanged, acc_msg = train(NeighbourMessageBlock)
    assert all(g is not None for g in grads)
    assert not any(unchanged)
    assert acc_msg > acc_plain, (acc_plain, acc_msg)
    print(f"k14: train accuracy {acc_plain:.2f} -> {acc_msg:.2f} with trained messages")


if __name__ == "__main__":
    main()
