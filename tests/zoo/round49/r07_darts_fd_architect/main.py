"""
expect: none
dynamic: dismiss
source: https://github.com/khanrc/pt.darts/blob/master/architect.py

A DARTS search step with the second-order (unrolled) architecture gradient, organised like a widely
used PyTorch DARTS port: the architect copies the network, writes the virtual weights
w' = w - xi * (momentum + grad + wd * w) into the copy under no_grad with copy_, takes the
validation gradient of the copy, and replaces the implicit term by a finite-difference
Hessian-vector product that shifts the real weights in place under no_grad, takes two
autograd.grad calls and shifts them back; alpha.grad is then assigned by hand. Every cut and every
in-place edit is deliberate: the dependence of w' on alpha is supplied by the Hessian term, each
loss is recomputed after the weights move, and the weights are restored. The asserts check the
architecture gradient against an exact second-order hypergradient computed by differentiating
through the unrolled step, that the weights come back unchanged, and that alternating weight and
architecture steps lower the validation loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from architect import Architect

torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class MixedLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)

    def forward(self, x, weights):
        ops = [x, self.lin(x), torch.tanh(self.gate(x)), torch.zeros_like(x)]
        return sum(w * op for w, op in zip(weights, ops))


class SearchNet(nn.Module):
    def __init__(self, dim=6, n_layers=2, n_classes=3):
        super().__init__()
        self.layers = nn.ModuleList(MixedLayer(dim) for _ in range(n_layers))
        self.head = nn.Linear(dim, n_classes)
        self.alpha = nn.Parameter(1e-1 * torch.randn(n_layers, 4))

    def forward(self, x):
        w = F.softmax(self.alpha, dim=-1)
        for i, layer in enumerate(self.layers):
            x = layer(x, w[i])
        return self.head(x)

    def loss(self, X, y):
        return F.cross_entropy(self(X), y)

    def weights(self):
        return [p for n, p in self.named_parameters() if n != "alpha"]

    def alphas(self):
        return [self.alpha]


def exact_hypergradient(net, trn, val, xi, momentum_bufs, momentum, wd):
    names = [n for n, _ in net.named_parameters() if n != "alpha"]
    w = {n: p.detach() for n, p in net.named_parameters() if n != "alpha"}
    alpha = net.alpha.detach().clone().requires_grad_(True)

    def loss_at(weights, X, y):
        return F.cross_entropy(functional_call(net, {**weights, "alpha": alpha}, (X,)), y)

    w_req = {n: t.clone().requires_grad_(True) for n, t in w.items()}
    g = torch.autograd.grad(loss_at(w_req, *trn), [w_req[n] for n in names], create_graph=True)
    w_unrolled = {n: w[n] - xi * (momentum_bufs[n] * momentum + gi + wd * w[n]) for n, gi in zip(names, g)}
    return torch.autograd.grad(loss_at(w_unrolled, *val), alpha)[0]


trn = (torch.randn(32, 6), torch.randint(0, 3, (32,)))
val = (torch.randn(32, 6), torch.randint(0, 3, (32,)))
net = SearchNet()
w_optim = torch.optim.SGD(net.weights(), lr=0.05, momentum=0.9, weight_decay=3e-4)
a_optim = torch.optim.Adam(net.alphas(), lr=3e-2)
architect = Architect(net, w_momentum=0.9, w_weight_decay=3e-4)
xi = 0.05

# one weight step so the optimizer has momentum buffers, as in a running search
w_optim.zero_grad()
net.loss(*trn).backward()
w_optim.step()

bufs = {n: w_optim.state[p]["momentum_buffer"].clone() for n, p in net.named_parameters() if n != "alpha"}
weights_before = [p.detach().clone() for p in net.weights()]
a_optim.zero_grad()
architect.unrolled_backward(*trn, *val, xi, w_optim)
exact = exact_hypergradient(net, trn, val, xi, bufs, 0.9, 3e-4)
rel_err = ((net.alpha.grad - exact).norm() / exact.norm()).item()
print(f"finite-difference vs exact hypergradient: relative error {rel_err:.2e}")
assert rel_err < 1e-3
assert all(torch.allclose(a, b, atol=1e-12) for a, b in zip(weights_before, net.weights()))

start = net.loss(*val).item()
for _ in range(40):
    a_optim.zero_grad()
    architect.unrolled_backward(*trn, *val, xi, w_optim)
    a_optim.step()
    w_optim.zero_grad()
    net.loss(*trn).backward()
    w_optim.step()
end = net.loss(*val).item()
print(f"validation loss {start:.4f} -> {end:.4f}; alpha softmax row 0: {F.softmax(net.alpha, -1)[0].detach().numpy().round(3)}")
assert end < start
