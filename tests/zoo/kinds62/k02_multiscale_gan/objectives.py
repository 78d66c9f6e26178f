import torch
import torch.nn.functional as F


def hinge_d(real_scores, fake_scores):
    return F.relu(1.0 - real_scores).mean() + F.relu(1.0 + fake_scores).mean()


def hinge_g(fake_scores):
    return -fake_scores.mean()


def backprop_terms(terms, optimizer, weights=None):
    """Backpropagate a list of generator terms one by one, then step."""
    if weights is None:
        weights = [1.0] * len(terms)
    optimizer.zero_grad()
    last = len(terms) - 1
    for k, (term, w) in enumerate(zip(terms, weights)):
        (w * term).backward(retain_graph=k < last)
    optimizer.step()
    return [t.item() for t in terms]
