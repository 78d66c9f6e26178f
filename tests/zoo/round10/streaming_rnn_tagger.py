"""
expect: GL004 35
dynamic: confirm
source: https://duoke360.com/post/34072

The post explains `retain_graph` and, as its "typical RNN use case", shows a
loop where `hidden = rnn_cell(input, hidden)` is carried from step to step and
`loss.backward(retain_graph=True)` is called at every step "because the graph
is needed again". Because the hidden state is never detached, every step's
graph stays chained to all earlier steps, so each backward walks (and keeps
alive) the whole history: memory and backward time grow with the stream
length. This program puts that pattern in a plain StreamingTagger class that
keeps the hidden state as an attribute across calls to observe(); the asserts
show the autograd graph behind each step's loss grows at every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingTagger:
    """Online tagger: one RNN cell step and one backward per incoming token."""

    def __init__(self, n_in=4, hidden=12, n_tags=3):
        self.cell = nn.RNNCell(n_in, hidden)
        self.out = nn.Linear(hidden, n_tags)
        self.hidden = torch.zeros(1, hidden)

    def parameters(self):
        return list(self.cell.parameters()) + list(self.out.parameters())

    def observe(self, x_t, tag_t):
        self.hidden = self.cell(x_t, self.hidden)
        loss = F.cross_entropy(self.out(self.hidden), tag_t)
        loss.backward(retain_graph=True)
        return loss


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def main():
    torch.manual_seed(0)
    tagger = StreamingTagger()
    opt = torch.optim.SGD(tagger.parameters(), lr=0.01)
    stream = torch.randn(60, 1, 4)
    tags = torch.randint(0, 3, (60, 1))

    opt.zero_grad()
    sizes = [graph_size(tagger.observe(x_t, y_t)) for x_t, y_t in zip(stream, tags)]
    opt.step()

    assert all(b > a for a, b in zip(sizes, sizes[1:]))
    assert sizes[-1] > 20 * sizes[0]
    assert all(p.grad is not None for p in tagger.parameters())
    print("graph behind each step's loss grows with the stream:", sizes[0], "->", sizes[-1])


if __name__ == "__main__":
    main()
