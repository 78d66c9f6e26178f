"""
expect: GL001 39
dynamic: confirm
source: none, invented

A task-conditioned regressor for few-shot regression: a small weight generator maps a task code to the
weight matrix of the hidden layer `body`, and the forward pass writes the predicted matrix into
`self.body.weight.data` before calling `self.body(x)`. Assigning to `.data` copies only the numbers, so the
history that links the prediction back to `weight_gen` is dropped; the loss then flows into `body.weight`
(which is overwritten on the next call anyway) and never into the generator, although the generator is in
the Adam optimizer. The asserts show that after training every `weight_gen` parameter still has
`grad is None` and unchanged values, while the variant that calls `F.linear(x, w, bias)` with the predicted
matrix gives the generator gradients and moves its weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TaskConditionedRegressor(nn.Module):
    def __init__(self, task_dim=8, in_dim=16, hidden=32, use_functional=False):
        super().__init__()
        self.in_dim, self.hidden = in_dim, hidden
        self.use_functional = use_functional
        self.weight_gen = nn.Sequential(
            nn.Linear(task_dim, 64), nn.Tanh(), nn.Linear(64, hidden * in_dim)
        )
        self.body = nn.Linear(in_dim, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, task_code):
        w = self.weight_gen(task_code).view(self.hidden, self.in_dim) * 0.1
        if self.use_functional:
            h = F.linear(x, w, self.body.bias)
        else:
            self.body.weight.data = w
            h = self.body(x)
        return self.head(torch.relu(h)).squeeze(-1)


def sample_task(task_dim=8, in_dim=16, n=64):
    code = torch.randn(task_dim)
    coef = torch.randn(in_dim)
    x = torch.randn(n, in_dim)
    y = torch.sin(x @ coef * 0.3) + 0.05 * torch.randn(n)
    return code, x, y


def train(use_functional, steps=30):
    torch.manual_seed(0)
    model = TaskConditionedRegressor(use_functional=use_functional)
    gen_before = [p.detach().clone() for p in model.weight_gen.parameters()]
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        code, x, y = sample_task()
        pred = model(x, code)
        loss = F.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in model.weight_gen.parameters()]
        opt.step()
    moved = any(not torch.equal(a, b.detach()) for a, b in zip(gen_before, model.weight_gen.parameters()))
    return grads, moved


if __name__ == "__main__":
    grads, moved = train(use_functional=False)
    assert all(g is None for g in grads), "generator unexpectedly received gradients"
    assert not moved, "generator weights changed"

    grads, moved = train(use_functional=True)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert moved
    print("k01: weight generator trains only with the functional call")
