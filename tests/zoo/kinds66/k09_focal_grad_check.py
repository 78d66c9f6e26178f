"""
expect: none
dynamic: dismiss
source: none, invented

A classifier trained with a hand-derived focal-loss gradient. Before trusting the derivation, the script
checks it: it copies the model's logits into a fresh leaf `z` (detach, clone, requires_grad_), builds the
focal objective on `z` with the class weights computed from detached softmax values, and compares
torch.autograd.grad(objective, z) with the closed-form gradient. The leaf is made on purpose so the check
looks only at the loss head, not the network. Training then feeds the verified hand-built gradient back into
the real logits with logits.backward(grad), so the network does learn. The asserts show the analytic and
autograd gradients agree, the first layer receives a gradient, and the training loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

GAMMA = 2.0


def focal_weights(probs, targets):
    p_t = probs.gather(1, targets[:, None]).squeeze(1)
    return (1 - p_t) ** GAMMA


def focal_grad(logits, targets):
    """Gradient of mean_i w_i * CE_i with the weights w_i treated as constants."""
    probs = F.softmax(logits, dim=1)
    onehot = F.one_hot(targets, logits.size(1)).float()
    w = focal_weights(probs, targets)
    return w[:, None] * (probs - onehot) / logits.size(0)


def check_gradient(model, inputs, targets):
    out = model(inputs)
    z = out.detach().clone().requires_grad_(True)
    w = focal_weights(F.softmax(z.detach(), dim=1), targets)
    objective = (w * F.cross_entropy(z, targets, reduction="none")).mean()
    (auto,) = torch.autograd.grad(objective, z)
    manual = focal_grad(out.detach(), targets)
    return torch.allclose(auto, manual, atol=1e-6), model[0].weight.grad


def train(model, inputs, targets, steps=80):
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    losses = []
    for _ in range(steps):
        logits = model(inputs)
        grad = focal_grad(logits.detach(), targets)
        opt.zero_grad()
        logits.backward(grad)
        opt.step()
        losses.append(F.cross_entropy(logits.detach(), targets).item())
    return losses


if __name__ == "__main__":
    inputs = torch.randn(128, 6)
    targets = (inputs[:, 0] + inputs[:, 1] > 0).long() + (inputs[:, 2] > 0.8).long()
    model = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 3))

    matches, first_grad = check_gradient(model, inputs, targets)
    assert matches
    assert first_grad is None

    w0 = model[0].weight.detach().clone()
    losses = train(model, inputs, targets)
    assert model[0].weight.grad is not None and model[0].weight.grad.abs().sum() > 0
    assert not torch.equal(model[0].weight, w0)
    assert losses[-1] < losses[0]
    print("focal gradient verified; loss %.3f -> %.3f" % (losses[0], losses[-1]))
