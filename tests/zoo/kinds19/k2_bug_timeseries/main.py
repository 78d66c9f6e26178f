"""
expect: GL004 main.py:49
dynamic: confirm
source: kinds check 19, kind 2 (written for this check)

`OnlineLearner` (learners.py) stores the GRU forecaster as `self.model`; the
subclass keeps the GRU hidden state on the object (`self.h`) across updates without
detaching it and calls `backward(retain_graph=True)`, so every update backpropagates
through all earlier chunks and the graph grows without bound. The asserts count the
autograd nodes behind `self.h` growing each update (constant with a detached state)
and, once an optimizer step has happened, the next update raising the in-place error.
"""
import torch
import torch.nn as nn
from learners import OnlineLearner


class DemandNet(nn.Module):
    def __init__(self, n_feat=4, hidden=24):
        super().__init__()
        self.cell = nn.GRUCell(n_feat, hidden)
        self.out = nn.Linear(hidden, 1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class StreamingForecaster(OnlineLearner):
    def __init__(self, model, accumulate=4):
        super().__init__(model)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=1e-2)
        self.accumulate = accumulate
        self.h = torch.zeros(1, 24)
        self.steps = 0

    def update(self, chunk, target):
        h = self.h
        for x_t in chunk:
            h = self.model.cell(x_t.unsqueeze(0), h)
        loss = (self.model.out(h).squeeze() - target).pow(2)
        loss.backward(retain_graph=True)
        self.h = h
        self.steps += 1
        self.observe(len(chunk))
        if self.steps % self.accumulate == 0:
            self.opt.step()
            self.opt.zero_grad()
        return graph_size(self.h)


if __name__ == "__main__":
    torch.manual_seed(4)
    data = [(torch.randn(6, 4), torch.randn(())) for _ in range(5)]
    leaky = StreamingForecaster(DemandNet())
    sizes = [leaky.update(c, y) for c, y in data[:4]]
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    try:
        leaky.update(*data[4])
        raise AssertionError("update after a step should hit the stale graph")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
    tbptt, fixed = StreamingForecaster(DemandNet()), []
    for c, y in data:
        tbptt.h = tbptt.h.detach()  # the fix: truncate BPTT at each update
        fixed.append(tbptt.update(c, y))
    assert len(set(fixed)) == 1, fixed
    print("k2_bug_timeseries: graph grows", sizes, "vs", fixed)
