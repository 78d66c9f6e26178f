"""
expect: GL002 47
dynamic: confirm
source: https://github.com/liorshk/facenet_pytorch/issues/6

In a FaceNet-style trainer (triplet loss plus an auxiliary softmax classifier) a user
pointed out that the hard triplets were gathered by going through NumPy,
`torch.from_numpy(out_a.cpu().data.numpy()[hard_triplets])`, so the triplet term was
computed on fresh leaf tensors and gave no gradient; training still ran on the
cross-entropy term alone. This program keeps that layout. The asserts show the
triplet term is positive but the embedding net's gradient is identical with the
triplet weight at 1 or 0, while indexing the embeddings directly changes it.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class FaceEmbedder(nn.Module):
    def __init__(self, d_in=20, d_emb=8, n_ids=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_emb))
        self.classifier = nn.Linear(d_emb, n_ids)

    def forward(self, x):
        return F.normalize(self.body(x), dim=1)

    def forward_classifier(self, x):
        return self.classifier(self.forward(x))


class TripletLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, a, p, n):
        d_ap = F.pairwise_distance(a, p)
        d_an = F.pairwise_distance(a, n)
        return F.relu(d_ap - d_an + self.margin).mean()


def pick(emb, idx):
    return torch.from_numpy(emb.cpu().data.numpy()[idx])


def step_loss(model, batch, margin=0.5, triplet_weight=1.0, via_numpy=True):
    xa, xp, xn, ya, yn = batch
    out_a, out_p, out_n = model(xa), model(xp), model(xn)
    d_ap = F.pairwise_distance(out_a, out_p)
    d_an = F.pairwise_distance(out_a, out_n)
    hard = np.where(((d_an - d_ap) < margin).cpu().data.numpy())[0]
    if via_numpy:
        sel_a, sel_p, sel_n = pick(out_a, hard), pick(out_p, hard), pick(out_n, hard)
    else:
        sel_a, sel_p, sel_n = out_a[hard], out_p[hard], out_n[hard]
    triplet = TripletLoss(margin)(sel_a, sel_p, sel_n)
    logits = torch.cat([model.forward_classifier(xa[hard]), model.forward_classifier(xn[hard])])
    labels = torch.cat([ya[hard], yn[hard]])
    ce = F.cross_entropy(logits, labels)
    return ce + triplet_weight * triplet, triplet


def body_grad(model, batch, **kw):
    model.zero_grad()
    loss, triplet = step_loss(model, batch, **kw)
    loss.backward()
    return torch.cat([p.grad.flatten() for p in model.body.parameters()]), triplet


torch.manual_seed(0)
model = FaceEmbedder()
batch = (torch.randn(16, 20), torch.randn(16, 20), torch.randn(16, 20),
         torch.randint(0, 5, (16,)), torch.randint(0, 5, (16,)))

g1, triplet = body_grad(model, batch, triplet_weight=1.0)
g0, _ = body_grad(model, batch, triplet_weight=0.0)
assert triplet.item() > 0 and not triplet.requires_grad
assert torch.allclose(g1, g0), "triplet term should add no gradient through NumPy"

f1, _ = body_grad(model, batch, triplet_weight=1.0, via_numpy=False)
f0, _ = body_grad(model, batch, triplet_weight=0.0, via_numpy=False)
assert not torch.allclose(f1, f0), "direct indexing should let the triplet term train"
print("p04 ok: hard-triplet selection through NumPy makes the triplet loss inert")
