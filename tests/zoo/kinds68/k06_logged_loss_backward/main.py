"""
expect: GL003 trainer.py:23
dynamic: confirm
source: none, invented

A multi-label tagger trained by a small Trainer class. After a warm-up period (decided by `should_update`)
the step backpropagates, but it calls backward on `log_loss`, the detached copy kept for the history; to
silence the "does not require grad" error the writer switched `requires_grad_()` on for it. The copy is a
fresh leaf with no history, so backward runs without complaint but no gradient ever reaches the model and the
optimizer steps with `.grad` None. The asserts show the weights never move; the fixed step, which
backpropagates the live loss, trains them.
"""
import copy

import torch
import torch.nn as nn

from trainer import Trainer


def run(fixed, steps=6):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 4))
    before = copy.deepcopy(model.state_dict())
    trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.5))
    images = torch.randn(8, 3, 8, 8)
    targets = torch.randint(0, 2, (8, 4)).float()
    step_fn = trainer.train_step_fixed if fixed else trainer.train_step
    for _ in range(steps):
        step_fn(images, targets)
    grads = [p.grad for p in model.parameters()]
    moved = any(not torch.equal(before[k], v) for k, v in model.state_dict().items())
    return grads, moved, trainer.history


if __name__ == "__main__":
    torch.set_num_threads(1)
    grads, moved, hist = run(fixed=False)
    assert all(g is None for g in grads)
    assert not moved
    assert len(set(round(h, 6) for h in hist)) == 1
    grads, moved, hist = run(fixed=True)
    assert all(g is not None for g in grads)
    assert moved and hist[-1] < hist[0]
    print("ok: backward on the detached log copy trains nothing; the live loss does")
