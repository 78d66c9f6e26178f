"""expect: GL002 backend.py:10
expect: GL003 25
dynamic: confirm
source: https://github.com/lululxvi/deepxde/pull/1318

A physics-informed network has trainable auxiliary variables that are packed
into one tensor through the backend's `as_tensor` helper (backend.py). For a
tuple of tensors `torch.as_tensor` copies the values, so the packed tensor has
no history; marking it `requires_grad = True` lets backward run, but the
auxiliary variables get no gradient. The PR switched the tuple case to
`torch.stack`.
"""
import torch

import backend as bkd


class AuxiliaryModel:
    def __init__(self):
        self.a = torch.tensor([1.0], requires_grad=True)
        self.b = torch.tensor([2.0], requires_grad=True)

    def auxiliary_variables(self):
        aux = bkd.as_tensor((self.a, self.b))
        aux.requires_grad = True
        return aux

    def residual_loss(self, x):
        aux = self.auxiliary_variables()
        return ((aux[0] * x - aux[1]) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    m = AuxiliaryModel()
    m.residual_loss(torch.randn(20)).backward()
    assert m.a.grad is None and m.b.grad is None
    print("ok: auxiliary variables are never trained")
