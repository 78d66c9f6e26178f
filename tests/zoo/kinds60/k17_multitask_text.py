"""
expect: none
dynamic: dismiss
source: none, invented

Multi-task text classification: one shared EmbeddingBag encoder and a head per task (topic, sentiment,
language), trained together. For each batch the script loops over the list of tasks and calls `task_step`,
which returns the task's cross-entropy loss and its batch accuracy, the latter rebuilt as
`torch.tensor(float(acc))`. Only the cross-entropy terms are summed into the loss that is backpropagated; the
rebuilt accuracy tensors go into a per-task history, are averaged with `torch.stack(...).mean()` for the epoch
log, and drive `ReduceLROnPlateau`. Nothing with gradient is routed through the Python float, so the round
trip is harmless. The asserts check that the encoder and every head change, that every task's loss falls, and
that every task's accuracy rises well above chance.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, SEQ = 200, 12


@dataclass
class Task:
    name: str
    n_classes: int
    head: nn.Module
    tokens: torch.Tensor
    labels: torch.Tensor


def synthetic_task(name, n_classes, n=1500):
    cue_words = torch.randperm(VOCAB)[: n_classes * 4].view(n_classes, 4)
    labels = torch.randint(0, n_classes, (n,))
    tokens = torch.randint(0, VOCAB, (n, SEQ))
    pos = torch.randint(0, SEQ, (n, 2))
    cues = cue_words[labels][torch.arange(n)[:, None], torch.randint(0, 4, (n, 2))]
    tokens[torch.arange(n)[:, None], pos] = cues
    return Task(name, n_classes, nn.Linear(64, n_classes), tokens, labels)


def task_step(encoder, task, idx):
    logits = task.head(encoder(task.tokens[idx]))
    loss = F.cross_entropy(logits, task.labels[idx])
    acc = (logits.argmax(-1) == task.labels[idx]).float().mean()
    return loss, torch.tensor(float(acc))


def main():
    encoder = nn.EmbeddingBag(VOCAB, 64, mode="mean")
    tasks = [synthetic_task("topic", 5), synthetic_task("sentiment", 2), synthetic_task("language", 3)]
    params = list(encoder.parameters()) + [p for t in tasks for p in t.head.parameters()]
    opt = torch.optim.Adam(params, lr=1e-2)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=2)
    before = [p.detach().clone() for p in params]

    log = {t.name: [] for t in tasks}
    for epoch in range(15):
        history = {t.name: [] for t in tasks}
        losses_epoch = {t.name: 0.0 for t in tasks}
        for idx in torch.randperm(1500).split(100):
            total = 0.0
            for task in tasks:
                loss, acc = task_step(encoder, task, idx)
                total = total + loss
                history[task.name].append(acc)
                losses_epoch[task.name] += loss.item()
            opt.zero_grad()
            total.backward()
            opt.step()
        epoch_acc = {name: torch.stack(accs).mean() for name, accs in history.items()}
        sched.step(torch.stack(list(epoch_acc.values())).mean().item())
        for name in log:
            log[name].append((losses_epoch[name], epoch_acc[name].item()))

    assert not any(torch.equal(a, b) for a, b in zip(before, params))
    for task in tasks:
        first, last = log[task.name][0], log[task.name][-1]
        assert last[0] < 0.5 * first[0], (task.name, first, last)
        assert last[1] > 1.0 / task.n_classes + 0.3, (task.name, last)
        print(f"{task.name}: accuracy {first[1]:.3f} -> {last[1]:.3f}")


if __name__ == "__main__":
    main()
