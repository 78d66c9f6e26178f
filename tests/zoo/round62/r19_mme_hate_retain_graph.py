"""
expect: none
dynamic: dismiss
source: https://github.com/MarkusBertram/Cross-Dataset-Generalization-of-German-Hate-Speech-Datasets/blob/861ecb43da65832f6fc71e11cf80f3413c6366a7/src/experiments/experiment_MME.py

A cross-dataset German hate-speech study adapts a classifier with Minimax
Entropy (MME): each step trains feature extractor and classifier on labelled
source + target text, then runs the unlabelled target batch through a
gradient-reversal layer and applies the entropy term, so the classifier and
the features play opposite sides of the same objective. The supervised loss
is backpropagated with `retain_graph=True` inside the training loop. That
looks like the classic way to hide a graph that grows from step to step, but
nothing here is carried into the next iteration: every step builds a fresh
forward from new batches, the entropy term uses a new forward pass, and the
retained buffers die with the step's local tensors. The flag is merely
unnecessary. The asserts check that the autograd graph behind each step's
loss has the same size at every step (no growth), that the gradient-reversal
path really flips the sign the feature extractor receives, and that the
supervised loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

EMB = 16  # stands in for frozen BERT sentence embeddings


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, eta):
        ctx.eta = eta
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.eta * grad, None


class MMEModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature_extractor = nn.Sequential(nn.Linear(EMB, 12), nn.ReLU())
        self.task_classifier = nn.Linear(12, 1)

    def forward(self, x, reverse=False, eta=1.0):
        h = self.feature_extractor(x)
        if reverse:
            h = GradReverse.apply(h, eta)
        return self.task_classifier(F.normalize(h, dim=1) * 5.0)


def count_nodes(fn, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return 0
    seen.add(fn)
    return 1 + sum(count_nodes(nxt, seen) for nxt, _ in fn.next_functions)


def batches(gen, n=16):
    w = torch.randn(EMB, generator=torch.Generator().manual_seed(0))
    xs = torch.randn(n, EMB, generator=gen)
    xt = torch.randn(n, EMB, generator=gen) + 0.5
    return xs, (xs @ w > 0).float(), xt


def main():
    model = MMEModel()
    criterion = nn.BCEWithLogitsLoss()
    optimizer_g = torch.optim.Adam(model.feature_extractor.parameters(), lr=5e-3)
    optimizer_f = torch.optim.Adam(model.task_classifier.parameters(), lr=5e-3)
    lamda, eta = 0.1, 0.5
    gen = torch.Generator().manual_seed(1)
    sizes, losses = [], []

    for step in range(40):
        data, target, unlabelled = batches(gen)
        optimizer_g.zero_grad()
        optimizer_f.zero_grad()
        output = model(data)
        loss = criterion(output.squeeze(1), target)
        sizes.append(count_nodes(loss.grad_fn))
        loss.backward(retain_graph=True)
        optimizer_g.step()
        optimizer_f.step()
        losses.append(loss.item())

        optimizer_g.zero_grad()
        optimizer_f.zero_grad()
        out_t1 = model(unlabelled, reverse=True, eta=eta)
        loss_t = lamda * torch.mean(torch.sigmoid(out_t1) * F.logsigmoid(out_t1 + 1e-5))
        loss_t.backward()
        optimizer_f.step()
        optimizer_g.step()

    assert len(set(sizes)) == 1, sizes  # the graph does not grow across steps
    assert sum(losses[-5:]) < sum(losses[:5])

    # The reversal layer flips what the features receive from the entropy term.
    _, _, unlabelled = batches(gen)
    grads = []
    for reverse in (False, True):
        model.zero_grad()
        out = model(unlabelled, reverse=reverse, eta=1.0)
        torch.mean(torch.sigmoid(out) * F.logsigmoid(out + 1e-5)).backward()
        grads.append(model.feature_extractor[0].weight.grad.clone())
    assert torch.allclose(grads[0], -grads[1])
    print(f"graph size per step {sizes[0]} (constant); loss {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
