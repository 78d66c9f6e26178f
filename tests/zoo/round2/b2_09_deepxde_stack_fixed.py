"""expect: none
source: https://github.com/lululxvi/deepxde/pull/1318

The fixed backend helper from the PR: a list or tuple of tensors is packed
with `torch.stack`, which keeps the autograd history, and only plain Python
data goes through `torch.as_tensor`. The auxiliary variables of the
physics-informed model now receive gradients.
"""
import torch


def as_tensor(data, dtype=None):
    if isinstance(data, (list, tuple)) and all(isinstance(d, torch.Tensor) for d in data):
        packed = torch.stack(data)
        return packed if dtype is None else packed.to(dtype)
    if isinstance(data, torch.Tensor):
        return data if dtype is None else data.to(dtype)
    return torch.as_tensor(data, dtype=dtype)


class AuxiliaryModel:
    def __init__(self):
        self.a = torch.tensor([1.0], requires_grad=True)
        self.b = torch.tensor([2.0], requires_grad=True)
        self.scale = as_tensor([0.5])

    def residual_loss(self, x):
        aux = as_tensor((self.a, self.b))
        return ((aux[0] * x - aux[1]) ** 2 * self.scale).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    m = AuxiliaryModel()
    m.residual_loss(torch.randn(20)).backward()
    assert m.a.grad.abs().sum() > 0 and m.b.grad.abs().sum() > 0
    print("ok: auxiliary variables receive gradients")
