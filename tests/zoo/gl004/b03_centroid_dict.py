"""expect: GL004 44
dynamic: confirm
source: https://github.com/EasonApolo/mstn/issues/4

Domain adaptation with a semantic (centroid-alignment) loss.  Per-class source and
target centroids live in a dict and each step blends the batch centroids into the
stored ones without `.detach()`, so the stored entries chain every past batch into
the loss and the retained graph grows step after step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
classifier = nn.Linear(16, 3)
params = list(encoder.parameters()) + list(classifier.parameters())
optimizer = torch.optim.SGD(params, lr=0.05)
centroids = {"src": torch.zeros(3, 16), "tgt": torch.zeros(3, 16)}
decay, sizes = 0.7, []
for step in range(6):
    xs, ys, xt = torch.randn(32, 10), torch.randint(0, 3, (32,)), torch.randn(32, 10)
    fs, ft = encoder(xs), encoder(xt)
    logits_s = classifier(fs)
    pseudo = classifier(ft).argmax(1)
    for key, feats, labels in (("src", fs, ys), ("tgt", ft, pseudo)):
        onehot = F.one_hot(labels, 3).float()
        batch_c = onehot.t() @ feats / onehot.sum(0).clamp(min=1).unsqueeze(1)
        centroids[key] = decay * centroids[key] + (1 - decay) * batch_c
    semantic = F.mse_loss(centroids["src"], centroids["tgt"])
    loss = F.cross_entropy(logits_s, ys) + 0.1 * semantic
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(loss))

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
