"""
expect: GL004 59
dynamic: confirm
source: https://e-com-net.com/article/1600156146990088192.htm

The article ("some pitfalls in LSTM programming") describes a model whose
forward writes the LSTM's returned (h, c) back into `self.h0, self.c0`. The
second batch then fails with "Trying to backward through the graph a second
time", the suggested fix `retain_graph=True` makes it run, and training soon
dies with CUDA out of memory because the graphs of all previous batches stay
attached through the carried state. This program trains a small load
forecaster over consecutive chunks of one long series in the same way,
accumulating gradients and stepping once at the end of the pass. It measures
the size of the autograd graph behind each chunk's loss: it grows with every
chunk (each backward re-traverses every earlier chunk), which is the memory and
time growth the article reports.
"""
import torch
import torch.nn as nn


class LoadForecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.h0 = torch.zeros(1, 1, hidden)
        self.c0 = torch.zeros(1, 1, hidden)

    def forward(self, chunk):
        out, (self.h0, self.c0) = self.lstm(chunk, (self.h0, self.c0))
        return self.head(out[:, -1])


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
    series = torch.sin(torch.arange(0, 400).float() * 0.1) + 0.05 * torch.randn(400)
    model = LoadForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.MSELoss()

    sizes = []
    opt.zero_grad()
    for start in range(0, 390 - 10, 10):
        chunk = series[start:start + 10].view(1, 10, 1)
        target = series[start + 10].view(1, 1)
        loss = loss_fn(model(chunk), target)
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
    opt.step()

    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    assert sizes[-1] > 10 * sizes[0]
    print("graph behind each loss grows every chunk:", sizes[0], "->", sizes[-1])


if __name__ == "__main__":
    main()
