"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/swav/issues/48

The question: SwAV's training loop calls embedding.detach(), so how can the backbone and the
prototypes be updated? The maintainer answered that the detached embeddings only fill the
queue and are never used for the gradient computation. This program rebuilds that split:
emb_queue.py stores detached copies of each batch's embeddings, while main.py computes the
swapped-prediction loss from the live output and uses the queue only to enlarge the code
computation under no_grad. It is a look-alike: the asserts show the backbone and the
prototype layer get non-zero gradients, change after each step, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from emb_queue import EmbeddingQueue

torch.manual_seed(0)


class SwAVModel(nn.Module):
    def __init__(self, n_protos=6):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8))
        self.prototypes = nn.Linear(8, n_protos, bias=False)

    def forward(self, x):
        emb = F.normalize(self.backbone(x), dim=1)
        return emb, self.prototypes(emb)


@torch.no_grad()
def sinkhorn(scores, iters=3, eps=0.05):
    q = torch.exp(scores / eps).t()
    q /= q.sum()
    k, b = q.shape
    for _ in range(iters):
        q /= q.sum(dim=1, keepdim=True)
        q /= k
        q /= q.sum(dim=0, keepdim=True)
        q /= b
    return (q * b).t()


model = SwAVModel()
queue = EmbeddingQueue(32, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
base = torch.randn(16, 12)
params = list(model.parameters())
before = [p.detach().clone() for p in params]
losses = []
for step in range(40):
    view1 = base + 0.1 * torch.randn_like(base)
    view2 = base + 0.1 * torch.randn_like(base)
    with torch.no_grad():
        w = model.prototypes.weight
        model.prototypes.weight.copy_(F.normalize(w, dim=1))
    emb, scores = model(torch.cat([view1, view2]))
    codes = []
    for v in range(2):
        s = scores[v * 16:(v + 1) * 16]
        with torch.no_grad():
            extra = queue.contents() @ model.prototypes.weight.t()
            codes.append(sinkhorn(torch.cat([s.detach(), extra]))[:16])
    loss = 0
    for v in range(2):
        logp = F.log_softmax(scores[(1 - v) * 16:(2 - v) * 16] / 0.1, dim=1)
        loss = loss - (codes[v] * logp).sum(dim=1).mean()
    queue.push(emb[:16])
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in params)
    opt.step()
    losses.append(loss.item())

assert all(not torch.equal(a, b) for a, b in zip(before, params))
assert min(losses[-5:]) < losses[0], (losses[0], losses[-5:])
print("ok: the queue holds detached copies; backbone and prototypes still learn")
