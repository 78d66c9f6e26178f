"""
expect: GL001 ewc_trainer.py:36, GL002 ewc_trainer.py:39
dynamic: confirm
source: https://github.com/Till1983/cp-swiss-german-asr/blob/d13bcd7223a496bc380d3aa2ce86d05277c7f33a/scripts/train_german_adaptation.py

Continual adaptation with Elastic Weight Consolidation: a model is trained on task A, the
diagonal Fisher and the task-A weights are stored, then training on task B adds the EWC penalty
sum F * (w - w_A)^2. To save accelerator memory the penalty is computed on CPU from
param.detach(), summed with .item() into a Python float, and handed back as
torch.tensor(float). The number looks right in the logs, but it is a constant: the weights get no
gradient from it, so the consolidation never acts. The asserts show that the returned penalty has
no grad_fn, that training on task B with lambda=100 lands on exactly the same weights as plain
fine-tuning, and that the same penalty kept on the graph holds the weights near task A.
"""
import copy

import torch
import torch.nn as nn

from ewc_trainer import EWCTrainer, Trainer, estimate_fisher

torch.manual_seed(0)
torch.set_num_threads(1)


def make_task(w, n=128):
    x = torch.randn(n, 8)
    y = (x @ w > 0).long()
    return x, y


xa, ya = make_task(torch.randn(8))
xb, yb = make_task(torch.randn(8))

model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 2))
Trainer(model).train(xa, ya, steps=200)
fisher = estimate_fisher(model, xa, ya)
old_params = {n: p.detach().clone() for n, p in model.named_parameters()}


def distance_from_a(m):
    return sum(((p - old_params[n]) ** 2).sum() for n, p in m.named_parameters()).sqrt().item()


# the penalty as written: a float rebuilt into a leaf tensor
ewc = EWCTrainer(copy.deepcopy(model), fisher, old_params)
with torch.no_grad():
    for p in ewc.model.parameters():
        p.add_(0.1)
penalty = ewc.compute_ewc_loss()
assert penalty.item() > 0 and penalty.grad_fn is None and not penalty.requires_grad

# task B with EWC (lambda = 100) == task B with no EWC at all
m_ewc = copy.deepcopy(model)
EWCTrainer(m_ewc, fisher, old_params, ewc_lambda=100.0).train(xb, yb, steps=150)
m_plain = copy.deepcopy(model)
Trainer(m_plain).train(xb, yb, steps=150)
for (n, p), (_, q) in zip(m_ewc.named_parameters(), m_plain.named_parameters()):
    assert torch.allclose(p, q), n


# intended: the same penalty, left on the graph
class GraphEWCTrainer(EWCTrainer):
    def compute_ewc_loss(self):
        total = sum(
            (self.fisher[n] * (p - self.old_params[n]) ** 2).sum()
            for n, p in self.model.named_parameters()
        )
        return self.ewc_lambda * total


m_fix = copy.deepcopy(model)
GraphEWCTrainer(m_fix, fisher, old_params, ewc_lambda=100.0).train(xb, yb, steps=150)
print(f"distance from task-A weights: plain {distance_from_a(m_plain):.3f}  "
      f"EWC as written {distance_from_a(m_ewc):.3f}  EWC on graph {distance_from_a(m_fix):.3f}")
assert distance_from_a(m_fix) < 0.7 * distance_from_a(m_ewc)
