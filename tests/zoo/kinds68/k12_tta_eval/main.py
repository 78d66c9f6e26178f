"""
expect: none
dynamic: dismiss
source: none, invented

Few-shot evaluation of a meta-learned classifier. For each task, adapt.py fine-tunes a copy of the model on
the task's support set with a few SGD steps (an inner loop that calls backward). The evaluation function in
main.py runs its loop under `with torch.no_grad():`, but wraps the adaptation call in `with
torch.enable_grad():`, so the inner loop builds graphs and its backward works; only the query forward is
scored without grad. The asserts show the adapted copies differ from the base model, the base model is left
untouched, and adapted query accuracy beats the unadapted one.
"""
import copy

import torch
import torch.nn as nn

from adapt import adapt_to_task


def sample_task(n_way=3, k_shot=5, n_query=10, dim=8, g=None):
    centers = torch.randn(n_way, dim, generator=g) * 2.0
    def draw(k):
        y = torch.arange(n_way).repeat_interleave(k)
        return centers[y] + 0.3 * torch.randn(len(y), dim, generator=g), y
    return draw(k_shot), draw(n_query)


def evaluate_tasks(model, tasks):
    model.eval()
    base_acc, adapted_acc, moved = [], [], []
    with torch.no_grad():
        for (sx, sy), (qx, qy) in tasks:
            base_acc.append((model(qx).argmax(1) == qy).float().mean().item())
            with torch.enable_grad():
                learner = adapt_to_task(model, sx, sy)
            adapted_acc.append((learner(qx).argmax(1) == qy).float().mean().item())
            moved.append(not torch.equal(learner[0].weight, model[0].weight))
    n = len(tasks)
    return sum(base_acc) / n, sum(adapted_acc) / n, all(moved)


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(3)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
    base_state = copy.deepcopy(model.state_dict())
    tasks = [sample_task(g=g) for _ in range(6)]
    base, adapted, moved = evaluate_tasks(model, tasks)
    assert moved
    assert all(torch.equal(base_state[k], v) for k, v in model.state_dict().items())
    assert adapted > base and adapted > 0.8
    print(f"ok: query accuracy {base:.2f} before adaptation, {adapted:.2f} after")
