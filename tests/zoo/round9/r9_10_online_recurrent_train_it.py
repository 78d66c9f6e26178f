"""
expect: GL004 41
dynamic: confirm
source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795

An online sensor model: a one-node leaky recurrent state is updated inside forward() and
kept on the module, and `train_it(x, y)` does one SGD step per incoming sample. The
second call failed with "backward through the graph a second time", and the suggested
`backward(retain_graph=True)` makes it run, but the state handed to the next call still
carries every earlier step's graph, so each backward walks the whole stream again and
the retained graph grows without bound. The program measures the autograd nodes
reachable from each loss (strictly growing, about linearly) versus a constant size when
the state is detached between samples, and shows the original second-call error.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class OnlineEstimator(nn.Module):
    def __init__(self, n_inputs=4, decay=0.9, lr=0.05, detach_state=False):
        super().__init__()
        self.inp = nn.Linear(n_inputs, 1, bias=False)
        self.out = nn.Linear(1, 1)
        self.register_buffer("decay", torch.tensor(decay))
        self.state = torch.zeros(1, 1)
        self.detach_state = detach_state
        self.loss = nn.MSELoss()
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, x):
        prev = self.state.detach() if self.detach_state else self.state
        self.state = self.decay * prev + self.inp(x)
        return self.out(self.state)

    def train_it(self, x, y):
        prediction = self(x)
        loss = self.loss(prediction, y)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return len(seen)


def stream(n):
    for _ in range(n):
        x = torch.randn(1, 4)
        yield x, x.sum(dim=1, keepdim=True) * 0.5


model = OnlineEstimator()
sizes = [graph_size(model.train_it(x, y)) for x, y in stream(40)]
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] >= 30 * (sizes[1] - sizes[0]), sizes

steady = OnlineEstimator(detach_state=True)
flat = [graph_size(steady.train_it(x, y)) for x, y in stream(40)]
assert len(set(flat)) == 1, flat

naive = OnlineEstimator()
(x1, y1), (x2, y2) = list(stream(2))
naive.loss(naive(x1), y1).backward()
try:
    naive.loss(naive(x2), y2).backward()
    raise AssertionError("expected the freed-graph error")
except RuntimeError as err:
    assert "backward through the graph a second time" in str(err)

print("OK")
