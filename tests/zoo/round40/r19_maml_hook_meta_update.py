"""expect: none
dynamic: dismiss
source: https://github.com/YujiaBao/Distributional-Signatures/blob/master/src/train/maml.py

Few-shot text classification trained with MAML the way the Distributional-Signatures code does it: the
initialisation is copied into a "fast" model through its state_dict (`copy_(p.data.clone())`), the fast
model is adapted on the support set with create_graph=True, the query-set gradient with respect to the fast
model's starting weights is stored, and the meta update runs a throw-away forward whose `torch.sum(pred)`
loss "doesn't matter", because hooks registered on every parameter swap its gradient for the averaged meta
gradient before the optimizer steps. The copy, the dummy loss and the hooks all look like broken autograd
but are deliberate. The asserts check that one meta update equals an SGD step along a MAML gradient
computed directly with torch.func on the real model, and that meta-training lowers the post-adaptation
query loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, EMB, WAYS, SHOTS, QUERY, LEN = 40, 12, 3, 4, 6, 7
INNER_LR, INNER_STEPS, META_BATCH, META_LR = 0.5, 2, 4, 1.0


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.proj = nn.Linear(EMB, EMB)
        self.clf = nn.Linear(EMB, WAYS)

    def forward(self, tokens):
        return self.clf(torch.tanh(self.proj(self.embed(tokens).mean(1))))


def sample_task():
    keywords = torch.randperm(VOCAB)[:WAYS]

    def split(n):
        y = torch.arange(WAYS).repeat_interleave(n)
        x = torch.randint(0, VOCAB, (WAYS * n, LEN))
        x[:, 0] = keywords[y]
        x[:, 1] = keywords[y]
        return x, y
    return split(SHOTS), split(QUERY)


def copy_weights(source, target):
    target_dict = target.state_dict()
    for name, p in source.named_parameters():
        if p.requires_grad:
            target_dict[name].copy_(p.data.clone())


def adapted_query_loss(net, params, task):
    (xs, ys), (xq, yq) = task
    weights = dict(params)
    for _ in range(INNER_STEPS):
        loss = F.cross_entropy(functional_call(net, weights, (xs,)), ys)
        grads = torch.autograd.grad(loss, list(weights.values()), create_graph=True)
        weights = {k: w - INNER_LR * g for (k, w), g in zip(weights.items(), grads)}
    return F.cross_entropy(functional_call(net, weights, (xq,)), yq)


def train_one(task, fast, total_grad):
    loss = adapted_query_loss(fast, fast.named_parameters(), task)
    grads = torch.autograd.grad(loss, list(fast.parameters()))
    total_grad.append({name: g for (name, _), g in zip(fast.named_parameters(), grads)})


def meta_update(model, total_grad, opt, task):
    (xs, _), _ = task
    pred = model(xs)
    loss = torch.sum(pred)  # value irrelevant: the hooks below replace every gradient
    avg_grad = {k: sum(g[k] for g in total_grad) for k in total_grad[0]}
    hooks = []
    for key, value in model.named_parameters():
        def get_closure():
            k = key

            def replace_grad(grad):
                return avg_grad[k] / META_BATCH
            return replace_grad
        hooks.append(value.register_hook(get_closure()))
    opt.zero_grad()
    loss.backward()
    opt.step()
    for h in hooks:
        h.remove()


model = Model()
fast = copy.deepcopy(model)
opt = torch.optim.SGD(model.parameters(), lr=META_LR)

# One meta update, checked against a direct second-order MAML gradient on the real model.
tasks = [sample_task() for _ in range(META_BATCH)]
reference = copy.deepcopy(model)
ref_loss = sum(adapted_query_loss(reference, reference.named_parameters(), t) for t in tasks) / META_BATCH
ref_grads = torch.autograd.grad(ref_loss, list(reference.parameters()))
expected = [p.detach() - META_LR * g for p, g in zip(reference.parameters(), ref_grads)]
total_grad = []
for t in tasks:
    copy_weights(model, fast)
    train_one(t, fast, total_grad)
meta_update(model, total_grad, opt, tasks[-1])
for p, e in zip(model.parameters(), expected):
    assert torch.allclose(p, e, atol=1e-5)

eval_tasks = [sample_task() for _ in range(8)]


def eval_loss():
    return sum(adapted_query_loss(model, model.named_parameters(), t).item() for t in eval_tasks) / len(eval_tasks)


before = eval_loss()
for _ in range(100):
    total_grad = []
    batch = [sample_task() for _ in range(META_BATCH)]
    for t in batch:
        copy_weights(model, fast)
        train_one(t, fast, total_grad)
    meta_update(model, total_grad, opt, batch[-1])
after = eval_loss()
assert after < 0.7 * before, (before, after)
print("post-adaptation query loss: %.3f -> %.3f" % (before, after))
