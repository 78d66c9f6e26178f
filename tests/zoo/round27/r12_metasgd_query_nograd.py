"""
expect: GL003 79
dynamic: confirm
source: https://github.com/benedictchen/meta-learning/blob/e178f78466e3ccfc26d0c4e45efff37c29cef948/test_learnable_optimizer.py

A learnable-optimizer / Meta-SGD integration script adapts a cloned learner on
the support set, then evaluates the query loss inside torch.no_grad() and calls
meta_loss.requires_grad_(True) before handing it to the meta-optimizer. Here a
Meta-SGD learner owns per-parameter learnable log step sizes; the trainer's
episode() computes the query loss under no_grad "to save memory" and switches
requires_grad on, so meta_step() backpropagates into nothing. The asserts show
the learned step sizes get no gradient and never change, while the same episode
without the no_grad block meta-trains them.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MetaSGD(nn.Module):
    """Base net (w, b) plus one learnable log step size per parameter tensor."""

    def __init__(self, d_in=8, n_way=3, init_lr=0.1):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n_way, d_in) * 0.1)
        self.b = nn.Parameter(torch.zeros(n_way))
        self.log_lr = nn.ParameterDict({
            "w": nn.Parameter(torch.full((n_way, d_in), math.log(init_lr))),
            "b": nn.Parameter(torch.full((n_way,), math.log(init_lr))),
        })

    @staticmethod
    def logits(params, x):
        return x @ params["w"].t() + params["b"]

    def adapt(self, xs, ys, steps=2):
        params = {"w": self.w, "b": self.b}
        for _ in range(steps):
            loss = F.cross_entropy(self.logits(params, xs), ys)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
            params = {k: p - self.log_lr[k].exp() * g
                      for (k, p), g in zip(params.items(), grads)}
        return params


class MetaTrainer:
    def __init__(self, learner, meta_lr=0.05):
        self.learner = learner
        self.meta_opt = torch.optim.Adam(learner.log_lr.parameters(), lr=meta_lr)

    def meta_step(self, meta_loss):
        self.meta_opt.zero_grad()
        meta_loss.backward()
        grads = [p.grad for p in self.learner.log_lr.parameters()]
        self.meta_opt.step()
        return grads


def make_task(g, d_in=8, n_way=3, shots=5):
    centers = torch.randn(n_way, d_in, generator=g) * 2
    ys = torch.arange(n_way).repeat_interleave(shots)
    xs = centers[ys] + 0.5 * torch.randn(len(ys), d_in, generator=g)
    yq = torch.arange(n_way).repeat_interleave(shots)
    xq = centers[yq] + 0.5 * torch.randn(len(yq), d_in, generator=g)
    return xs, ys, xq, yq


def episode(trainer, task, save_memory):
    xs, ys, xq, yq = task
    adapted = trainer.learner.adapt(xs, ys)
    if save_memory:
        with torch.no_grad():
            meta_loss = F.cross_entropy(MetaSGD.logits(adapted, xq), yq)
        meta_loss.requires_grad_(True)
    else:
        meta_loss = F.cross_entropy(MetaSGD.logits(adapted, xq), yq)
    return trainer.meta_step(meta_loss), meta_loss.item()


def run(save_memory, episodes=25):
    torch.manual_seed(0)
    learner = MetaSGD()
    trainer = MetaTrainer(learner)
    lr0 = learner.log_lr["w"].detach().clone()
    g = torch.Generator().manual_seed(1)
    first_grads = None
    for i in range(episodes):
        grads, _ = episode(trainer, make_task(g), save_memory)
        if i == 0:
            first_grads = grads
    drift = (learner.log_lr["w"].detach() - lr0).abs().max().item()
    return first_grads, drift


if __name__ == "__main__":
    grads_bug, drift_bug = run(save_memory=True)
    grads_fix, drift_fix = run(save_memory=False)
    print("buggy grads:", [None if g is None else g.abs().sum().item() for g in grads_bug],
          "log_lr drift", drift_bug)
    print("fixed grads:", [g.abs().sum().item() for g in grads_fix], "log_lr drift", drift_fix)
    # the query loss is a fresh leaf: the learned step sizes are never reached
    assert all(g is None for g in grads_bug)
    assert drift_bug == 0.0
    # the same episode with the graph kept meta-trains the step sizes
    assert all(g is not None and g.abs().sum() > 0 for g in grads_fix)
    assert drift_fix > 1e-3
    print("OK")
