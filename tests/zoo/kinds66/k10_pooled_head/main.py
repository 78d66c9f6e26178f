"""
expect: GL001 model.py:15
dynamic: confirm
source: none, invented

A deep-sets classifier: every element of a set goes through an embedding MLP, the embeddings are mean-pooled
and a small head classifies the pooled vector. The author wanted to cache the pooled embedding for a
nearest-neighbour lookup and, to avoid holding the graph, wrote `.detach()` on the pooled tensor itself, then
fed that same detached tensor to the head. The pooled vector is the only route from the embedding network to
the loss, so the embedding MLP is cut off: its first layer never receives a gradient and keeps its initial
weights, while only the head trains. The asserts show embed[0].weight.grad is None and the weights are
unchanged after training; the fixed model caches a detached copy but classifies the live tensor, and its
first layer gets a gradient and moves.
"""
import torch
import torch.nn.functional as F

from model import SetClassifier, SetClassifierFixed

torch.manual_seed(0)
torch.set_num_threads(1)


def make_sets(n=96, size=7):
    sets = torch.randn(n, size, 4)
    labels = (sets[:, :, 0].max(dim=1).values > 1.2).long()
    return sets, labels


def fit(model, sets, labels, epochs=40):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(epochs):
        logits = model(sets)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    sets, labels = make_sets()

    model = SetClassifier()
    first_w = model.embed[0].weight.detach().clone()
    head_w = model.head[1].weight.detach().clone()
    fit(model, sets, labels)
    assert model.embed[0].weight.grad is None
    assert torch.equal(model.embed[0].weight, first_w)
    assert not torch.equal(model.head[1].weight, head_w)

    fixed = SetClassifierFixed()
    first_w = fixed.embed[0].weight.detach().clone()
    final = fit(fixed, sets, labels)
    assert fixed.embed[0].weight.grad is not None
    assert fixed.embed[0].weight.grad.abs().sum() > 0
    assert not torch.equal(fixed.embed[0].weight, first_w)
    assert fixed.last_embedding is not None and not fixed.last_embedding.requires_grad
    print("set classifier final loss %.3f" % final)
