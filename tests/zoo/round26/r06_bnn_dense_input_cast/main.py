"""
expect: GL002 layers.py:20
dynamic: confirm
source: https://github.com/brendanhasz/probflow/pull/65

The ProbFlow PR fixing the PyTorch fully-connected example says the network would not
converge because inputs were cast to tensors twice ("maybe cutting off grad
propagation") and that casting once at the top level fixed it. Here a Bayesian MLP
(layers.py) casts its input with torch.tensor(x) inside every layer so it can accept
numpy arrays; for hidden layers x is the previous layer's output, so the cast copies
it out of the graph and only the last layer ever receives a gradient from the ELBO's
likelihood term. The asserts show the first layer's mean weights get gradient only
from the KL term and that casting once at the input restores it.
"""
import warnings

import numpy as np
import torch
import torch.nn as nn

from layers import BayesDense, DenseNetwork

warnings.filterwarnings("ignore", message="To copy construct")
torch.manual_seed(0)
torch.set_num_threads(1)

rng = np.random.default_rng(0)
x_np = rng.normal(size=(128, 3)).astype(np.float32)
y = torch.from_numpy(np.sin(x_np @ np.array([1.0, -2.0, 0.5], dtype=np.float32)))[:, None]


def elbo_loss(net, x, n_data=128):
    pred = net(x)
    return nn.functional.mse_loss(pred, y) + net.kl() / n_data


net = DenseNetwork([3, 16, 16, 1])
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(20):
    opt.zero_grad()
    elbo_loss(net, x_np).backward()
    opt.step()

torch.manual_seed(3)
net.zero_grad()
elbo_loss(net, x_np).backward()
g_first = net.layers[0].w_loc.grad.clone()
net.zero_grad()
(net.kl() / 128).backward()
g_first_kl = net.layers[0].w_loc.grad.clone()
assert torch.allclose(g_first, g_first_kl), "first layer only sees the KL regulariser"


class CastOnce(BayesDense):
    def forward(self, x):
        w = self.w_loc + nn.functional.softplus(self.w_scale) * torch.randn_like(self.w_loc)
        out = x @ w + self.b_loc
        return nn.functional.relu(out) if self.activation else out


fixed = DenseNetwork([3, 16, 16, 1])
for i, layer in enumerate(fixed.layers):
    new = CastOnce(layer.w_loc.shape[0], layer.w_loc.shape[1], layer.activation)
    new.load_state_dict(net.layers[i].state_dict())
    fixed.layers[i] = new
torch.manual_seed(3)
fixed.zero_grad()
elbo_loss(fixed, torch.from_numpy(x_np)).backward()
assert not torch.allclose(fixed.layers[0].w_loc.grad, g_first_kl)
print("ok: per-layer torch.tensor cast leaves hidden layers trained by KL only")
