import copy

import torch
import torch.nn.functional as F


def adapt_to_task(model, support_x, support_y, inner_steps=5, inner_lr=0.1):
    """Fine-tune a copy of the model on a task's support set (first-order inner loop)."""
    learner = copy.deepcopy(model)
    learner.train()
    opt = torch.optim.SGD(learner.parameters(), lr=inner_lr)
    for _ in range(inner_steps):
        opt.zero_grad()
        loss = F.cross_entropy(learner(support_x), support_y)
        loss.backward()
        opt.step()
    learner.eval()
    return learner
