"""expect: none
dynamic: dismiss
source: https://github.com/WeiChengTseng/Pytorch-PCGrad/blob/7b8860fb0cb040210cfd6934d9760142f5a2d2b9/pcgrad.py

Multi-task regression on tabular features with PCGrad (projecting
conflicting task gradients). Inside every training step the wrapper loops
over the task losses and calls obj.backward(retain_graph=True) for each, then
edits the flattened gradient copies in place (g_i -= ...) before writing the
projected gradient back to .grad. retain_graph is required because all task
losses share the trunk's graph within one step; nothing is carried to the
next step, so the graph does not accumulate across iterations, and the
in-place edits touch detached gradient copies that no recorded op saved.
"""
import copy
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class PCGrad:
    def __init__(self, optimizer):
        self._optim = optimizer

    def zero_grad(self):
        return self._optim.zero_grad(set_to_none=True)

    def step(self):
        return self._optim.step()

    def pc_backward(self, objectives):
        grads, shapes = self._pack_grad(objectives)
        pc_grad = self._project_conflicting(grads)
        self._set_grad(self._unflatten_grad(pc_grad, shapes[0]))

    def _project_conflicting(self, grads):
        pc_grad = copy.deepcopy(grads)
        for g_i in pc_grad:
            random.shuffle(grads)
            for g_j in grads:
                g_i_g_j = torch.dot(g_i, g_j)
                if g_i_g_j < 0:
                    g_i -= g_i_g_j * g_j / (g_j.norm() ** 2)
        return torch.stack(pc_grad).mean(dim=0)

    def _pack_grad(self, objectives):
        grads, shapes = [], []
        for obj in objectives:
            self._optim.zero_grad(set_to_none=True)
            obj.backward(retain_graph=True)
            grad, shape = self._retrieve_grad()
            grads.append(torch.cat([g.flatten() for g in grad]))
            shapes.append(shape)
        return grads, shapes

    def _retrieve_grad(self):
        grad, shape = [], []
        for group in self._optim.param_groups:
            for p in group["params"]:
                grad.append(p.grad.clone() if p.grad is not None else torch.zeros_like(p))
                shape.append(p.shape)
        return grad, shape

    def _unflatten_grad(self, flat, shapes):
        out, idx = [], 0
        for shape in shapes:
            n = math.prod(shape)
            out.append(flat[idx:idx + n].view(shape).clone())
            idx += n
        return out

    def _set_grad(self, grads):
        idx = 0
        for group in self._optim.param_groups:
            for p in group["params"]:
                p.grad = grads[idx]
                idx += 1


class MultiTaskNet(nn.Module):
    def __init__(self, n_features=10, n_tasks=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(16, 1) for _ in range(n_tasks)])

    def forward(self, x):
        h = self.trunk(x)
        return [head(h) for head in self.heads]


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


if __name__ == "__main__":
    torch.manual_seed(0)
    random.seed(0)
    x = torch.randn(64, 10)
    ys = [x[:, :1] * 2, -x[:, :1] + x[:, 1:2], x[:, 2:3] ** 2]
    net = MultiTaskNet()
    opt = PCGrad(torch.optim.Adam(net.parameters(), lr=1e-2))
    sizes, losses = [], []
    for epoch in range(5):
        preds = net(x)
        task_losses = [F.mse_loss(p, y) for p, y in zip(preds, ys)]
        sizes.append(sum(graph_size(l.grad_fn) for l in task_losses))
        opt.zero_grad()
        opt.pc_backward(task_losses)
        opt.step()
        losses.append(sum(l.item() for l in task_losses))
    assert len(set(sizes)) == 1, sizes            # no graph carried across steps
    assert all(p.grad is not None for p in net.trunk.parameters())
    assert losses[-1] < losses[0], losses
    print("OK: retain_graph per task inside one step; graph size constant", sizes[0])
