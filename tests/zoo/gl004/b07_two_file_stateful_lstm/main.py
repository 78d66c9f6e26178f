"""expect: GL004 33
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/2769

Training script for the LSTMClassifier of lstm_classifier.py, whose forward()
stores its new (h, c) in self.hidden and starts the next call from it.  The loop
never calls init_hidden() or detaches, so with retain_graph=True each clip's
backward also runs through every earlier clip and the graph keeps growing.
"""
import torch
import torch.nn.functional as F

from lstm_classifier import LSTMClassifier


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train(model, clips, labels, lr=0.01):
    model.train()
    sizes = []
    for clip, target in zip(clips, labels):
        output = model(clip)
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
        for p in model.parameters():  # plain SGD on .data, as in 0.2-era code
            p.data.add_(p.grad.data, alpha=-lr)
    return sizes


if __name__ == "__main__":
    torch.manual_seed(0)
    clips = [torch.randn(1, 6, 12) for _ in range(5)]
    labels = [torch.randint(0, 5, (1,)) for _ in range(5)]
    sizes = train(LSTMClassifier(), clips, labels)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    print("graph grows:", sizes)
