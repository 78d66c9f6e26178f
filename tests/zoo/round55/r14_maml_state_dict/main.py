"""
expect: GL001 learner.py:17
dynamic: confirm
source: https://discuss.pytorch.org/t/understanding-load-state-dict-effect-on-computational-graph/16115

MAML on sinusoid regression. For each task the Adapter in learner.py copies the
meta-network into a scratch network with load_state_dict(meta_net.state_dict()),
takes inner SGD steps on the support set and returns the query loss, which the
outer loop backpropagates and hands to the meta-optimizer (built here over the
meta-network's parameters). state_dict() yields tensors cut from the graph and
load_state_dict copies their values, so the query loss is connected to the
scratch network only: the meta-parameters get no gradient and the meta-optimizer
never moves them, while the loss values look normal. The asserts show .grad is
None on every meta-parameter after the meta-backward, that the meta-parameters are
bit-identical after many outer steps, and that the functional version (fast
weights built from named_parameters) gives gradients and lowers the post-adaptation
query loss.
"""
import torch
import torch.nn as nn

from learner import Adapter, FunctionalAdapter

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net():
    return nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))


def sample_task(k=10):
    amp = torch.empty(1).uniform_(0.5, 3.0)
    phase = torch.empty(1).uniform_(0.0, 3.1416)
    xs = torch.empty(2 * k, 1).uniform_(-5.0, 5.0)
    ys = amp * torch.sin(xs + phase)
    return xs[:k], ys[:k], xs[k:], ys[k:]


def meta_train(adapter, meta_net, outer_steps, tasks_per_batch=4):
    meta_opt = torch.optim.Adam(meta_net.parameters(), lr=1e-3)
    history = []
    for _ in range(outer_steps):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(tasks_per_batch):
            task_loss = adapter.query_loss(*sample_task()) / tasks_per_batch
            task_loss.backward()
            total += task_loss.item()
        meta_opt.step()
        history.append(total)
    return history


def evaluate(adapter, n=50):
    torch.manual_seed(123)
    return sum(adapter.query_loss(*sample_task()).item() for _ in range(n)) / n


meta_net = make_net()
adapter = Adapter(meta_net)
loss = adapter.query_loss(*sample_task())
loss.backward()
assert loss.requires_grad
assert all(p.grad is None for p in meta_net.parameters())
assert any(p.grad is not None for p in adapter.fast_net.parameters())

before = [p.detach().clone() for p in meta_net.parameters()]
meta_train(adapter, meta_net, outer_steps=40)
assert all(torch.equal(a, b) for a, b in zip(before, meta_net.parameters()))

torch.manual_seed(7)
good_net = make_net()
good = FunctionalAdapter(good_net)
start = evaluate(good)
torch.manual_seed(8)
meta_train(good, good_net, outer_steps=300)
assert all(p.grad is not None for p in good_net.parameters())
end = evaluate(good)
assert end < start
print(f"post-adaptation query loss (functional MAML): {start:.3f} -> {end:.3f}")
