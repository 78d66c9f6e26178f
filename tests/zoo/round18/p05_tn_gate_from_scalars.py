"""
expect: GL002 35
dynamic: confirm
source: https://github.com/jcmgray/quimb/issues/118

The report: after a PyTorch upgrade, quimb's tensor-network optimisation with the torch
backend broke; the maintainer traced it to building a tensor from a nested list whose
entries are torch scalars - `torch.tensor([[x, y], [y, 0]])` (and `torch.as_tensor`) no
longer keeps `requires_grad`, so the result is a fresh constant - and worked around it by
recursively stacking with torch.stack. This program rebuilds a small variational
tensor-network fit: a matrix-product-like chain whose middle "gate" is parametrised by two
scalars and assembled from a nested list, next to ordinary tensor parameters. Training runs
(the other tensors still carry gradients), but the asserts show the two gate scalars get no
gradient and never move, while the torch.stack construction trains them.
"""
import torch

torch.manual_seed(0)


class ChainModel(torch.nn.Module):
    def __init__(self, stack_gate=False):
        super().__init__()
        self.left = torch.nn.Parameter(torch.randn(2, 3) * 0.5)
        self.right = torch.nn.Parameter(torch.randn(3, 2) * 0.5)
        self.x = torch.nn.Parameter(torch.tensor(0.3))
        self.y = torch.nn.Parameter(torch.tensor(-0.2))
        self.stack_gate = stack_gate

    def gate(self):
        x, y = self.x, self.y
        if self.stack_gate:
            zero = torch.zeros((), dtype=x.dtype)
            return torch.stack([torch.stack([x, y]), torch.stack([y, zero])])
        return torch.tensor([[x, y], [y, 0.0]])

    def forward(self, v_in):
        # contract  v_in -left- G -right-  into a vector of amplitudes
        h = torch.einsum("bi,ij->bj", v_in, self.left)
        g = self.gate()
        core = torch.einsum("ab,bj->aj", g, h.T[:2])
        core = torch.cat([core, h.T[2:]], dim=0)
        return torch.einsum("jb,jk->bk", core, self.right)


def fit(model, steps=200):
    v = torch.randn(32, 2)
    target = torch.einsum("bi,ij->bj", v, torch.tensor([[0.9, -0.4], [0.7, 0.2]]))
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    for _ in range(steps):
        loss = ((model(v) - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore")
    model = ChainModel()
    x0, y0, l0 = model.x.item(), model.y.item(), model.left.detach().clone()
    fit(model)
    assert model.x.grad is None and model.y.grad is None
    assert model.x.item() == x0 and model.y.item() == y0
    assert not torch.equal(model.left.detach(), l0)          # the rest of the network trains

    fixed = ChainModel(stack_gate=True)
    fit(fixed)
    assert fixed.x.grad is not None and fixed.x.grad.abs() > 0
    assert fixed.x.item() != x0 and fixed.y.item() != y0
    print("OK: gate scalars rebuilt by torch.tensor(list) are frozen; torch.stack trains them")
