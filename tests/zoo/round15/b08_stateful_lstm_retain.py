"""
expect: GL004 67
dynamic: confirm
source: https://learn.biosrag.com/ai/rnn-training-4.html

The article explains that "cannot backpropagate more than once" errors in RNN/LSTM training come from
reusing the hidden state across batches without detaching it, so each new batch's graph is chained
onto the previous one; the cure is to cut the hidden state before the next segment. This program
rebuilds a stateful sequence trainer that instead silences the PyTorch version of that error with
`loss.backward(retain_graph=True)` while carrying the LSTM state from batch to batch inside an epoch.
A hook on every carried hidden state shows the k-th backward walking back through all k earlier
segments (1, 2, 3, ... hook calls), and the graph reachable from each loss grows linearly; detaching
the carried state keeps both constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class SeriesForecaster(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, state):
        out, state = self.lstm(x, state)
        return self.head(out), state


class StatefulTrainer:
    def __init__(self, model, cut_state=False):
        self.model = model
        self.cut_state = cut_state
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.hook_calls = 0

    def _count(self, grad):
        self.hook_calls += 1

    def train_epoch(self, series, segment=8):
        state = None
        calls_per_backward, sizes = [], []
        self.opt.zero_grad()
        for start in range(0, series.shape[1] - segment, segment):
            x = series[:, start:start + segment, None]
            y = series[:, start + 1:start + segment + 1, None]
            if self.cut_state and state is not None:
                state = tuple(s.detach() for s in state)
            pred, state = self.model(x, state)
            state[0].register_hook(self._count)
            loss = F.mse_loss(pred, y)
            self.hook_calls = 0
            loss.backward(retain_graph=True)
            calls_per_backward.append(self.hook_calls)
            sizes.append(graph_size(loss))
        self.opt.step()
        return calls_per_backward, sizes


t = torch.linspace(0, 12, 97)
series = torch.sin(t)[None].repeat(2, 1) + 0.05 * torch.randn(2, 97)

calls, sizes = StatefulTrainer(SeriesForecaster()).train_epoch(series)
assert calls == [0] + list(range(1, len(calls))), calls
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

calls_cut, sizes_cut = StatefulTrainer(SeriesForecaster(), cut_state=True).train_epoch(series)
assert all(c == 0 for c in calls_cut), calls_cut
assert len(set(sizes_cut[1:])) == 1, sizes_cut
print("ok: each backward re-walks all earlier segments:", calls, sizes)
