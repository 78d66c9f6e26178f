"""
expect: GL001 main.py:42
dynamic: confirm
source: kinds check 43, kind 2

Semi-supervised classification of stroke features: a small MLP is trained on a labelled batch with cross-entropy
plus an entropy-minimisation penalty on an unlabelled batch. The loss lives in objectives.py as
`objective(net, x, y, penalty)`, which returns `cross_entropy(net(x), y) + lam * penalty`; the caller computes the
penalty from the unlabelled predictions after `.detach()`, so the penalty enters the loss as a bare number. The
asserts show that on every training step the gradient of the full objective equals the gradient of the
cross-entropy alone (the penalty contributes nothing), whereas the same penalty computed from the attached
predictions changes the gradient.
"""
import torch
import torch.nn as nn

from objectives import objective, task_only

torch.manual_seed(2)

N_LAB, N_UNLAB, FEAT, CLASSES = 40, 400, 16, 5


def mean_entropy(probs):
    return -(probs * probs.clamp_min(1e-8).log()).sum(-1).mean()


def grads_of(loss, net):
    return torch.autograd.grad(loss, list(net.parameters()), retain_graph=True)


def main():
    centers = 2.5 * torch.randn(CLASSES, FEAT)
    y_lab = torch.arange(N_LAB) % CLASSES
    x_lab = centers[y_lab] + torch.randn(N_LAB, FEAT)
    x_unlab = centers[torch.randint(0, CLASSES, (N_UNLAB,))] + torch.randn(N_UNLAB, FEAT)

    net = nn.Sequential(nn.Linear(FEAT, 48), nn.GELU(), nn.Linear(48, CLASSES))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)

    for step in range(60):
        probs_u = net(x_unlab).softmax(-1).detach()
        penalty = mean_entropy(probs_u)
        loss = objective(net, x_lab, y_lab, penalty, lam=1.0)

        g_full = grads_of(loss, net)
        g_task = grads_of(task_only(net, x_lab, y_lab), net)
        assert all(torch.allclose(a, b) for a, b in zip(g_full, g_task)), step

        opt.zero_grad()
        loss.backward()
        opt.step()

    # what was intended: the penalty on the attached predictions does change the gradient
    intended = objective(net, x_lab, y_lab, mean_entropy(net(x_unlab).softmax(-1)), lam=1.0)
    g_intended = grads_of(intended, net)
    g_task = grads_of(task_only(net, x_lab, y_lab), net)
    assert max((a - b).abs().max().item() for a, b in zip(g_intended, g_task)) > 1e-5
    print(f"semi-supervised: loss {loss.item():.4f}, unlabelled entropy {penalty.item():.4f}")


if __name__ == "__main__":
    main()
