"""
expect: GL005 clustering.py:7
dynamic: confirm
source: none, invented

A prototype classifier: an encoder maps points to an embedding and `ClusterHead` (clustering.py)
turns squared distances to learnable prototypes into soft assignments through a kernel passed to
its constructor, by default `soft_assign`. That kernel computes `torch.exp(...)` and then clamps
the result in place with `w.clamp_(min=1e-8)`; `exp` saved its output for the backward, so
`loss.backward()` raises "modified by an inplace operation". The asserts catch that error; the
same head built with `kernel=softmax_assign` (out-of-place clamp) trains: the prototypes and the
encoder move and the accuracy on the four blobs is high.
"""
import torch
import torch.nn as nn

from clustering import ClusterHead, softmax_assign

torch.manual_seed(0)
torch.set_num_threads(1)

BLOBS = torch.tensor([[3.0, 3.0], [-3.0, 3.0], [-3.0, -3.0], [3.0, -3.0]])


def blobs(n=128):
    y = torch.randint(0, 4, (n,))
    return BLOBS[y] + 0.7 * torch.randn(n, 2), y


def build(kernel=None):
    encoder = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 8))
    head = ClusterHead(8, 4) if kernel is None else ClusterHead(8, 4, kernel=kernel)
    return encoder, head


def train(encoder, head, steps):
    opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-2)
    for _ in range(steps):
        x, y = blobs()
        q = head(encoder(x))
        loss = -torch.log(q[torch.arange(len(y)), y]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    x, y = blobs(1000)
    with torch.no_grad():
        return (head(encoder(x)).argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    enc, head = build()
    err = None
    try:
        train(enc, head, 1)
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "modified by an inplace operation" in err, err

    enc, head = build(kernel=softmax_assign)
    p0 = head.prototypes.detach().clone()
    acc = train(enc, head, 150)
    assert (head.prototypes - p0).abs().max().item() > 1e-3
    assert acc > 0.9, acc
    print("k08_proto_clusters: all checks passed")
