"""
expect: GL001 44
dynamic: confirm
source: https://github.com/KanishJebaMathewM/Truxify/issues/13118

Few-shot classification with an ANIL-style meta-learner: the inner loop adapts only the
classifier head on the support set, the outer loop trains body and head initialisation
on the query loss. `adapt()` builds the fast head weights from `param.data`, which takes
the inner step off the autograd record, so the query loss has no path back to the head
initialisation: the meta-optimizer never updates it while the body (still on the
record) trains. The program asserts the head init has no gradient and never moves while
the body does, and that with the parameters themselves the head init does get a
meta-gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_WAY, K_SHOT, N_QUERY, DIM = 3, 5, 5, 10


class FewShotNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, N_WAY)


class MetaLearner:
    def __init__(self, model, inner_lr=0.5, meta_lr=1e-2, use_data=True):
        self.model = model
        self.inner_lr = inner_lr
        self.use_data = use_data
        self.meta_optimizer = torch.optim.Adam(model.parameters(), lr=meta_lr)

    def adapt(self, support_feats, support_y):
        params = [self.model.head.weight, self.model.head.bias]
        logits = F.linear(support_feats, *params)
        loss = F.cross_entropy(logits, support_y)
        grads = torch.autograd.grad(loss, params)
        if self.use_data:
            fast = [p.data - self.inner_lr * g for p, g in zip(params, grads)]
        else:
            fast = [p - self.inner_lr * g for p, g in zip(params, grads)]
        return fast

    def meta_step(self, tasks):
        meta_loss = 0.0
        for xs, ys, xq, yq in tasks:
            fast_w, fast_b = self.adapt(self.model.body(xs), ys)
            query_logits = F.linear(self.model.body(xq), fast_w, fast_b)
            meta_loss = meta_loss + F.cross_entropy(query_logits, yq)
        meta_loss = meta_loss / len(tasks)
        self.meta_optimizer.zero_grad()
        meta_loss.backward()
        head_grad = self.model.head.weight.grad
        self.meta_optimizer.step()
        return meta_loss.item(), head_grad


def sample_task():
    centers = torch.randn(N_WAY, DIM) * 2
    ys = torch.arange(N_WAY).repeat_interleave(K_SHOT)
    yq = torch.arange(N_WAY).repeat_interleave(N_QUERY)
    xs = centers[ys] + torch.randn(len(ys), DIM)
    xq = centers[yq] + torch.randn(len(yq), DIM)
    return xs, ys, xq, yq


def run(use_data):
    torch.manual_seed(1)
    model = FewShotNet()
    learner = MetaLearner(model, use_data=use_data)
    head0 = model.head.weight.detach().clone()
    body0 = model.body[0].weight.detach().clone()
    head_grads = []
    for _ in range(4):
        _, g = learner.meta_step([sample_task() for _ in range(4)])
        head_grads.append(g)
    head_moved = not torch.equal(head0, model.head.weight)
    body_moved = not torch.equal(body0, model.body[0].weight)
    return head_grads, head_moved, body_moved


head_grads, head_moved, body_moved = run(use_data=True)
assert all(g is None for g in head_grads), "head init unexpectedly got a meta-gradient"
assert not head_moved and body_moved

head_grads, head_moved, body_moved = run(use_data=False)
assert all(g is not None and g.abs().sum() > 0 for g in head_grads)
assert head_moved and body_moved

print("OK")
