"""
expect: none
dynamic: dismiss
source: https://github.com/quark0/darts/blob/HEAD/cnn/architect.py

DARTS' Architect approximates the second-order term of the architecture
gradient with a finite difference: it nudges every network weight in place
through p.data.add_(R, v), recomputes the training loss, takes the gradient
with respect to the architecture weights alpha, nudges the other way, and puts
the weights back. The in-place .data edits look like edits of saved tensors,
but each one is followed by a fresh forward pass, so no recorded graph ever
sees a changed weight. The asserts check the result against the exact
mixed second derivative from double backward, and that the weights are
restored.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class MixedNet(nn.Module):
    def __init__(self, n=5, n_ops=3):
        super().__init__()
        self.ops = nn.ModuleList([nn.Linear(n, n) for _ in range(n_ops)])
        self.head = nn.Linear(n, 3)
        self.alphas = nn.Parameter(1e-1 * torch.randn(n_ops))

    def weights(self):
        return [p for name, p in self.named_parameters() if name != "alphas"]

    def forward(self, x):
        w = F.softmax(self.alphas, dim=0)
        h = sum(wi * torch.tanh(op(x)) for wi, op in zip(w, self.ops))
        return self.head(h)

    def loss(self, x, y):
        return F.cross_entropy(self(x), y)


class Architect:
    def __init__(self, model):
        self.model = model

    def hessian_vector_product(self, vector, x, y, r=1e-2):
        R = r / torch.cat([v.view(-1) for v in vector]).norm()
        for p, v in zip(self.model.weights(), vector):
            p.data.add_(v, alpha=R)
        loss = self.model.loss(x, y)
        grads_p = autograd.grad(loss, [self.model.alphas])

        for p, v in zip(self.model.weights(), vector):
            p.data.sub_(v, alpha=2 * R)
        loss = self.model.loss(x, y)
        grads_n = autograd.grad(loss, [self.model.alphas])

        for p, v in zip(self.model.weights(), vector):
            p.data.add_(v, alpha=R)
        return [(gp - gn) / (2 * R) for gp, gn in zip(grads_p, grads_n)]


model = MixedNet()
arch = Architect(model)
x_tr, y_tr = torch.randn(16, 5), torch.randint(0, 3, (16,))
x_va, y_va = torch.randn(16, 5), torch.randint(0, 3, (16,))

before = [p.detach().clone() for p in model.weights()]
val_loss = model.loss(x_va, y_va)
vector = list(autograd.grad(val_loss, model.weights()))
fd = arch.hessian_vector_product(vector, x_tr, y_tr)[0]

for p, b in zip(model.weights(), before):
    assert torch.allclose(p, b, atol=1e-12)

# exact: d/dalpha ( dL_train/dw . v )
train_loss = model.loss(x_tr, y_tr)
gw = autograd.grad(train_loss, model.weights(), create_graph=True)
dot = sum((g * v).sum() for g, v in zip(gw, vector))
exact = autograd.grad(dot, [model.alphas])[0]
assert exact.abs().sum() > 0
assert torch.allclose(fd, exact, rtol=1e-3, atol=1e-6), (fd, exact)
print("ok: finite-difference hvp", fd.tolist(), "matches exact", exact.tolist())
