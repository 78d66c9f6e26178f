"""
expect: GL001 meta_learner.py:9
dynamic: confirm
source: https://github.com/eduardocerqueira/seeker/blob/HEAD/seeker/snippet/meta_learning_maml.py

The snippet: a MAML sketch clones the model, takes create_graph grads of the
support loss, then applies them with the functional SGD API. That API updates
parameters in place under torch.no_grad(), so the adapted weights carry no
history: the query loss has no path back to the meta model, and
`meta_loss.backward()` leaves every meta parameter's grad None. The
asserts show the meta weights get no grad and do not move, while a functional
inner step gives a non-zero meta gradient on the same tasks.
"""
import torch
import torch.nn as nn

from meta_learner import MetaLearner, functional_meta_grad

torch.manual_seed(0)
torch.set_num_threads(1)


def sample_task():
    a, ph = torch.rand(1) * 2 + 0.5, torch.rand(1) * 3
    xs, xq = torch.rand(10, 1) * 6 - 3, torch.rand(10, 1) * 6 - 3
    return xs, a * torch.sin(xs + ph), xq, a * torch.sin(xq + ph)


model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
learner = MetaLearner(model)
before = [p.detach().clone() for p in model.parameters()]

for _ in range(5):
    tasks = [sample_task() for _ in range(4)]
    learner.meta_train_step(tasks)

# Bug: the meta model never receives a gradient and never moves.
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

# Fixed variant on the same kind of tasks: the meta gradient exists.
ref = functional_meta_grad(model, [sample_task() for _ in range(4)], 0.1)
assert sum(g.abs().sum().item() for g in ref) > 1e-4
print("ok: meta params untouched by no_grad inner update; functional MAML grad",
      sum(g.abs().sum().item() for g in ref))
