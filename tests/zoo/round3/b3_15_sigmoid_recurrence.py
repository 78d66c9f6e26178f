"""expect: GL005 26
expect: GL005 27
dynamic: error
source: https://github.com/pytorch/pytorch/issues/36470

The reporter computes the recurrence f(n) = sigmoid(f(n-1) * x) by writing each step
into slots of one preallocated tensor f.  Every f[i] = ... assignment is an in-place
write into f, while the multiplication f[i-1] * x saved a view of f for its backward,
so torch.autograd.grad fails with "modified by an inplace operation".
"""
import torch
import torch.nn as nn


class SigmoidRecurrence(nn.Module):
    def __init__(self, steps=10, a=1.0):
        super().__init__()
        self.x = nn.Parameter(torch.ones(1))
        self.steps = steps
        self.a = a

    def forward(self):
        f = torch.zeros(self.steps)
        f[0] = self.a
        for i in range(1, self.steps):
            f[i] = f[i - 1] * self.x
            f[i] = 1 / (1.0 + torch.exp(-f[i]))
        return f


if __name__ == "__main__":
    model = SigmoidRecurrence()
    loss = torch.sum(model())
    try:
        torch.autograd.grad(loss, [model.x])
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
        print("grad raised:", str(e)[:90])
    else:
        raise AssertionError("expected an in-place modification error")
