"""
expect: GL004 63
dynamic: confirm
source: https://github.com/dpressel/dliss-tutorial/issues/1

A reader of this contextual-embeddings tutorial asked why the LSTM language model
detaches its (h, c) state at every step while still starting each batch from the old state.
The answer is truncated BPTT: without the detach each batch's graph is chained to all
previous ones. This copy keeps a running context vector (instead of (h, c)) across batches without the
detach, and the trainer then "needs"
backward(retain_graph=True) to stop the second-backward error. The asserts show the
autograd graph behind the loss grows every step (old batches are still reachable), while
the detached variant keeps it constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
V = 20


class ContextLM(nn.Module):
    """Next-token model with a running context vector carried across batches."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(V, 32)
        self.feat = nn.Linear(V, 32)
        self.out = nn.Linear(32, V)

    def forward(self, x, ctx):
        onehot = F.one_hot(x, V).float()
        new = torch.tanh(self.proj(onehot)).mean(1)
        ctx = new if ctx is None else 0.9 * ctx + new
        return self.out(self.feat(onehot) + ctx.unsqueeze(1)), ctx


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class LMTrainer:
    def __init__(self, model, truncate):
        self.model, self.truncate = model, truncate
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.state = None

    def step(self, x, y):
        if self.truncate and self.state is not None:
            self.state = self.state.detach()
        logits, self.state = self.model(x, self.state)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        self.opt.step()
        return graph_size(loss)


corpus = torch.randint(0, V, (4, 6 * 10 + 1))
sizes = {}
for truncate in (False, True):
    torch.manual_seed(0)
    tr = LMTrainer(ContextLM(), truncate)
    out = []
    for i in range(6):
        x = corpus[:, i * 10:(i + 1) * 10]
        y = corpus[:, i * 10 + 1:(i + 1) * 10 + 1]
        out.append(tr.step(x, y))
    sizes[truncate] = out

print(sizes)
assert len(set(sizes[True][1:])) == 1
assert all(b > a for a, b in zip(sizes[False], sizes[False][1:]))
print("bug confirmed: retained graph grows across batches")
