"""expect: none
dynamic: none
source: https://github.com/hosseinshn/GradNorm/issues/9

GradNorm for a two-task regression network with a shared trunk. Each step
backpropagates the weighted multi-task loss with `retain_graph=True` and then,
still in the same step, calls torch.autograd.grad on each task loss with respect
to the last shared layer (create_graph=True) to get per-task gradient norms,
from which the loss-weight update is computed. Those autograd.grad calls walk
the very graph the first backward went through, so retaining it is required
(without it the step fails); the graph is dropped when the step ends, nothing
accumulates across iterations, and both the network and the task weights train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=6, hidden=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head1 = nn.Linear(hidden, 1)
        self.head2 = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.head1(h), self.head2(h)


def train(model, x, y1, y2, epochs=30, alpha=0.16):
    task_w = nn.Parameter(torch.ones(2))
    opt_model = torch.optim.Adam(model.parameters(), lr=1e-2)
    opt_w = torch.optim.Adam([task_w], lr=1e-2)
    shared = model.trunk[2].weight
    initial, history = None, []
    for _ in range(epochs):
        p1, p2 = model(x)
        l1 = task_w[0] * F.mse_loss(p1, y1)
        l2 = task_w[1] * F.mse_loss(p2, y2)
        loss = (l1 + l2) / 2
        if initial is None:
            initial = (l1.item(), l2.item())

        opt_model.zero_grad()
        loss.backward(retain_graph=True)

        g1 = torch.autograd.grad(l1, shared, retain_graph=True, create_graph=True)[0].norm()
        g2 = torch.autograd.grad(l2, shared, retain_graph=True, create_graph=True)[0].norm()
        g_avg = (g1 + g2) / 2
        r1, r2 = l1.item() / initial[0], l2.item() / initial[1]
        r_avg = (r1 + r2) / 2
        c1 = (g_avg * (r1 / r_avg) ** alpha).detach()
        c2 = (g_avg * (r2 / r_avg) ** alpha).detach()
        grad_loss = (g1 - c1).abs() + (g2 - c2).abs()

        opt_w.zero_grad()
        task_w.grad = torch.autograd.grad(grad_loss, task_w)[0]
        opt_w.step()
        opt_model.step()
        with torch.no_grad():
            task_w.mul_(2.0 / task_w.sum())
        history.append(loss.item())
    return task_w, history


def make_data():
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    return x, x[:, :1] * 3.0, torch.sin(x[:, 1:2])


def main():
    x, y1, y2 = make_data()
    model = MultiTaskNet()
    w0 = model.trunk[0].weight.detach().clone()
    task_w, history = train(model, x, y1, y2)
    assert history[-1] < history[0]
    assert not torch.equal(model.trunk[0].weight.detach(), w0)
    assert abs(task_w.sum().item() - 2.0) < 1e-5 and not torch.allclose(task_w.detach(), torch.ones(2))

    original_backward = torch.Tensor.backward

    def freeing_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        return original_backward(self, gradient, False, create_graph, inputs)

    torch.Tensor.backward = freeing_backward
    try:
        train(MultiTaskNet(), x, y1, y2, epochs=1)
    except RuntimeError as err:
        assert "backward through the graph a second time" in str(err)
    else:
        raise AssertionError("the per-task gradient norms need the retained graph")
    finally:
        torch.Tensor.backward = original_backward
    print("GradNorm trains; retained graph is consumed within each step")


if __name__ == "__main__":
    main()
