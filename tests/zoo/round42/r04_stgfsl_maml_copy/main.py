"""
expect: GL001 maml.py:35
dynamic: confirm
source: https://github.com/RobinLu1209/ST-GFSL/issues/3

Spatio-temporal few-shot forecasting with MAML: each source city is a task; a deepcopy of the model is adapted
on the task's support windows and the query loss drives a meta step with meta_optim, which was built over
self.model.parameters() in __init__. After adaptation the code rebinds `self.model = deepcopy(maml_model)` and
computes the query loss through that copy. The copy's tensors are new leaves with no path back to the
parameters the meta-optimizer holds, so model_loss.backward() fills gradients on the throw-away copy and the
original meta-parameters get grad None; meta_optim.step() never moves them (the issue: "won't deepcopy stop
the optimizer from optimizing?", acknowledged by the authors). The asserts show the held parameters keep no
gradient and stay bit-identical, and that a functional fast-weight version gives them gradients and moves them.
"""
import torch

from maml import FunctionalMeta, STMeta

torch.manual_seed(0)
torch.set_num_threads(1)


def city_tasks(n_tasks=3, n=24, lookback=12):
    tasks = []
    for k in range(n_tasks):
        t = torch.arange(n + lookback + 1, dtype=torch.float32)
        series = torch.sin(0.3 * t * (1 + 0.2 * k)) + 0.05 * torch.randn_like(t)
        windows = series.unfold(0, lookback + 1, 1)
        x, y = windows[:, :-1], windows[:, -1]
        tasks.append((x[: n // 2], y[: n // 2], x[n // 2 :], y[n // 2 :]))
    return tasks


tasks = city_tasks()
meta = STMeta()
held = [p for group in meta.meta_optim.param_groups for p in group["params"]]
snapshot = [p.detach().clone() for p in held]
for _ in range(3):
    meta.meta_train(tasks)
assert all(p.grad is None for p in held)
assert all(torch.equal(p.detach(), s) for p, s in zip(held, snapshot))
assert all(p.grad is not None for p in meta.model.parameters())  # the copy got them instead

torch.manual_seed(0)
fmeta = FunctionalMeta()
held2 = [p for group in fmeta.meta_optim.param_groups for p in group["params"]]
snap2 = [p.detach().clone() for p in held2]
fmeta.meta_train(tasks)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in held2)
assert any(not torch.equal(p.detach(), s) for p, s in zip(held2, snap2))
print("deepcopy meta step: meta-parameters untouched; functional meta step: meta-parameters updated")
