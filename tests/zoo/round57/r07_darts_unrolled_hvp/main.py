"""
expect: none
dynamic: dismiss
source: https://github.com/ECP-CANDLE/Benchmarks/blob/f6a3da8818308c9edcd9fedbcf831dd5968efcdd/common/darts/architecture.py

Second-order DARTS search (bilevel: weights on the training split, architecture
weights alpha on the validation split). The architect unrolls one weight step into a
copied model, backpropagates the validation loss there, and approximates the implicit
term with a central finite difference: it nudges the *live* weights in place with
`p.data.add_(R * v)`, takes autograd.grad of a fresh training loss w.r.t. alpha, moves
them to `-R * v`, again, and finally restores them; the result is written into
`alpha.grad` with `.data` copies. All the `.data` edits happen between complete
forward/backward pairs: no recorded graph ever sees a weight change after saving it,
and the weights end where they started. The program checks that the finite-difference
term matches an exact double-backward Hessian-vector product, that the weights are
restored, and that alternating weight and architect steps lower the loss and move alpha.
"""
import torch

from architect import Architect, flatten
from model import Network

torch.manual_seed(0)
torch.set_num_threads(1)

g = torch.Generator().manual_seed(1)
X = torch.randn(64, 5, generator=g)
Y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
x_train, y_train, x_valid, y_valid = X[:32], Y[:32], X[32:], Y[32:]

model = Network()
architect = Architect(model)

# 1) finite-difference implicit term vs. exact mixed second derivative
vector = [torch.randn_like(p) for p in model.weights()]
before = [p.detach().clone() for p in model.weights()]
fd = architect.hessian_vector_product(vector, x_train, y_train)[0]
for a, p in zip(before, model.weights()):
    assert torch.allclose(a, p, atol=1e-6), "weights not restored"
loss = model.loss(x_train, y_train)
gw = torch.autograd.grad(loss, model.weights(), create_graph=True)
exact = torch.autograd.grad((flatten(gw) * flatten(vector)).sum(), model.arch_parameters())[0]
rel = ((fd - exact).norm() / exact.norm()).item()
assert rel < 0.05, rel

# 2) the bilevel search loop
w_opt = torch.optim.SGD(model.weights(), lr=0.1, momentum=0.9)
alpha0 = model.alpha_normal.detach().clone()
start = model.loss(x_valid, y_valid).item()
for step in range(40):
    architect.step(x_train, y_train, x_valid, y_valid, eta=0.1)
    w_opt.zero_grad()
    model.loss(x_train, y_train).backward()
    w_opt.step()
end = model.loss(x_valid, y_valid).item()
moved = (model.alpha_normal.detach() - alpha0).abs().max().item()
assert end < start, (start, end)
assert moved > 1e-3, moved
print("r07 ok: FD-HVP rel err %.3g, valid loss %.3f -> %.3f, alpha moved %.3f" % (rel, start, end, moved))
