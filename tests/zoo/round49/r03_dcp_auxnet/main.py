"""
expect: GL005 aux_trainer.py:41, GL001 aux_trainer.py:29
dynamic: confirm
source: https://github.com/SCUT-AILab/DCP/issues/20

Discrimination-aware channel pruning first trains an "auxnet": the network is cut into segments,
each followed by an auxiliary classifier, and the i-th loss is minimised by an optimizer that holds
segments 0..i. The trainer runs one forward pass for all segments, then for each loss in turn calls
backward(retain_graph=True) and immediately steps that loss's optimizer. The step updates the
weights of the shallow segments in place while the next auxiliary loss still has to backpropagate
through them with the weights saved in the same graph, so backward stops with "modified by an
inplace operation". The reporter's workaround, detaching the features between segments, removes the
error but changes the algorithm: the deeper auxiliary losses no longer reach the shallow segments
their optimizers hold (a cut path, also expected above). The asserts show the RuntimeError, that
under the detach workaround the second loss gives segment 0 no gradient, and that computing every
loss's gradients before any step trains segment 0 from both losses without error.
"""
import torch
import torch.nn as nn

from aux_trainer import AuxTrainer

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net(seed=0):
    torch.manual_seed(seed)
    segments = nn.ModuleList([
        nn.Sequential(nn.Linear(20, 32), nn.ReLU()),
        nn.Sequential(nn.Linear(32, 32), nn.ReLU()),
        nn.Sequential(nn.Linear(32, 32), nn.ReLU()),
    ])
    heads = nn.ModuleList([nn.Linear(32, 5) for _ in range(3)])
    return segments, heads


images, labels = torch.randn(16, 20), torch.randint(0, 5, (16,))

# 1) as written: optimizer step between two backward passes through one graph
segments, heads = make_net()
trainer = AuxTrainer(segments, heads, pivot_weight=[0.3, 0.6, 1.0])
try:
    trainer.train_step(images, labels)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
print("step between backward passes raises in-place error:", raised)
assert raised

# 2) the workaround from the report: detach between segments
segments, heads = make_net()
trainer = AuxTrainer(segments, heads, detach_between_segments=True)
_, losses = trainer.forward(images, labels)
g = torch.autograd.grad(losses[1], list(segments[0].parameters()), allow_unused=True)
print("detach workaround: loss 1 reaches segment 0:", any(x is not None for x in g))
assert all(x is None for x in g)
trainer.train_step(images, labels)

# 3) intended: gradients of every auxiliary loss first, optimizer steps afterwards
segments, heads = make_net()
trainer = AuxTrainer(segments, heads)
_, losses = trainer.forward(images, labels)
seg0 = list(segments[0].parameters())
g1 = torch.autograd.grad(losses[1], seg0, retain_graph=True)
assert all(x.abs().sum() > 0 for x in g1)
per_loss = []
for i, loss in enumerate(losses):
    params = [p for group in trainer.seg_optimizer[i].param_groups for p in group["params"]]
    params += list(heads[i].parameters())
    per_loss.append((params, torch.autograd.grad(loss, params, retain_graph=i < len(losses) - 1)))
before = seg0[0].detach().clone()
for i, (params, grads) in enumerate(per_loss):
    trainer.seg_optimizer[i].zero_grad()
    trainer.fc_optimizer[i].zero_grad()
    for p, gr in zip(params, grads):
        p.grad = gr.clone()
    trainer.fc_optimizer[i].step()
    trainer.seg_optimizer[i].step()
print("gradients first, then steps: segment 0 updated:", not torch.equal(before, seg0[0].detach()))
assert not torch.equal(before, seg0[0].detach())
