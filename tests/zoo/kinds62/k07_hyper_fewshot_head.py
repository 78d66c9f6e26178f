"""
expect: GL001 54
dynamic: confirm
source: none, invented

Few-shot classification where a hypernetwork maps a task code to the weights of the classifier head. The helper
load_task_head(classifier, hyper, task_code) writes the generated matrix into the classifier with
`classifier.head.weight.data = ...`. The generated matrix carries history back to the hypernetwork, but the
`.data` assignment keeps only its values, so the loss through the classifier reaches the head's own weight leaf
and never the hypernetwork, although the hypernetwork sits in the optimizer. The asserts show every
hypernetwork parameter has grad None after backward and is bit-identical after training; the functional variant
(F.linear with the generated weight) gives the hypernetwork gradients and lowers the episode loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

IN_DIM, FEAT, N_WAY, CODE = 20, 32, 5, 8


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, FEAT), nn.ReLU())
        self.head = nn.Linear(FEAT, N_WAY, bias=False)

    def forward(self, x):
        return self.head(self.features(x))


class HeadGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(CODE, 64), nn.ReLU(), nn.Linear(64, N_WAY * FEAT))

    def forward(self, code):
        return self.mlp(code)


TASK_MIX = torch.randn(CODE, IN_DIM, N_WAY)


def sample_episode(n=50):
    code = torch.randn(CODE)
    x = torch.randn(n, IN_DIM)
    y = (x @ torch.einsum("c,cin->in", code, TASK_MIX)).argmax(dim=1)
    return code, x, y


def load_task_head(classifier, hyper, task_code):
    classifier.head.weight.data = hyper(task_code).view(N_WAY, FEAT)


def episode_loss(classifier, hyper, code, x, y):
    load_task_head(classifier, hyper, code)
    return F.cross_entropy(classifier(x), y)


def episode_loss_functional(classifier, hyper, code, x, y):
    w = hyper(code).view(N_WAY, FEAT)
    return F.cross_entropy(F.linear(classifier.features(x), w), y)


def train(loss_fn, steps=300):
    torch.manual_seed(0)
    classifier, hyper = Classifier(), HeadGenerator()
    opt = torch.optim.Adam(list(classifier.features.parameters()) + list(hyper.parameters()), lr=1e-3)
    hyper_start = [p.detach().clone() for p in hyper.parameters()]
    losses, first_grads = [], None
    for step in range(steps):
        loss = loss_fn(classifier, hyper, *sample_episode())
        opt.zero_grad()
        loss.backward()
        if first_grads is None:
            first_grads = [p.grad for p in hyper.parameters()]
        opt.step()
        losses.append(loss.item())
    return hyper, hyper_start, first_grads, losses


def main():
    hyper, start, grads, losses = train(episode_loss)
    assert all(g is None for g in grads)
    assert all(torch.equal(p, p0) for p, p0 in zip(hyper.parameters(), start))

    hyper, start, grads, losses = train(episode_loss_functional)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert all(not torch.equal(p, p0) for p, p0 in zip(hyper.parameters(), start))
    early, late = sum(losses[:30]) / 30, sum(losses[-30:]) / 30
    assert late < early, (early, late)
    print(f"k07: functional head, episode loss {early:.3f} -> {late:.3f}")


if __name__ == "__main__":
    main()
