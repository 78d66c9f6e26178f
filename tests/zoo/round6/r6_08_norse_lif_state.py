"""expect: GL004 48
dynamic: confirm
source: https://github.com/norse/norse/issues/130

Spiking network with a leaky integrate-and-fire layer whose membrane state is
returned by the cell and passed back in on the next call. The training loop
reuses that state across mini-batches without detaching it; the second
backward() would fail, so retain_graph=True is added, as suggested in the
thread. Now every iteration's graph hangs off the previous one: the graph
reachable from the loss grows linearly and each backward re-differentiates all
earlier batches, silently adding stale gradient contributions.
"""
import torch
import torch.nn as nn


class LIFCell(nn.Module):
    def __init__(self, n_in, n_out, decay=0.9, v_th=1.0):
        super().__init__()
        self.input_weights = nn.Linear(n_in, n_out, bias=False)
        self.decay, self.v_th = decay, v_th

    def forward(self, x, state=None):
        current = self.input_weights(x)
        v = current if state is None else self.decay * state + current
        spikes = torch.sigmoid(5.0 * (v - self.v_th))   # surrogate spike
        return spikes, v


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def train(cell, optimizer, batches):
    sizes, state = [], None
    for x, target_rate in batches:
        spikes, state = cell(x, state)
        loss = ((spikes.mean(0) - target_rate) ** 2).sum()
        sizes.append(graph_size(loss.grad_fn))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
    return sizes


if __name__ == "__main__":
    torch.manual_seed(0)
    cell = LIFCell(12, 4)
    optimizer = torch.optim.SGD(cell.parameters(), lr=0.1)
    batches = [(torch.rand(16, 12), torch.full((4,), 0.2)) for _ in range(6)]
    sizes = train(cell, optimizer, batches)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    assert sizes[-1] >= sizes[0] + 5 * (sizes[1] - sizes[0]), sizes
    print("OK: autograd graph keeps growing across iterations:", sizes)
