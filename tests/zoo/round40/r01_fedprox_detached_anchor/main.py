"""expect: GL001 client.py:27
dynamic: confirm
source: https://github.com/flwrlabs/flower/issues/1774

A FedProx round in the style of the Flower strategy docstring: the server ships its weights as NumPy arrays, each
client loads them, keeps a copy as the anchor and trains on local data with cross-entropy plus
(mu/2)*||w_local - w_global||^2. In the linked issue a user "fixed" a requires_grad complaint by writing
local_weights.detach() inside the proximal term, which is what client.py does. That detach cuts the only path from the
proximal term to the local parameters: the term becomes a constant, so mu has no effect at all and FedProx silently
degrades to FedAvg. The asserts show that the proximal term carries no gradient, that the local update with mu=10 is
bit-identical to the one with mu=0, and that the same client without the detach both gets a gradient from the term and
stays measurably closer to the global weights.
"""
import torch

from client import FedProxClient, make_net

torch.manual_seed(0)
torch.set_num_threads(1)


class FixedFedProxClient(FedProxClient):
    def proximal_term(self, global_params):
        term = 0.0
        for local_weights, global_weights in zip(self.net.parameters(), global_params):
            term = term + (local_weights - global_weights).norm(2) ** 2
        return term


def drift(arrays_a, arrays_b):
    return sum(float(((torch.from_numpy(a) - torch.from_numpy(b)) ** 2).sum()) for a, b in zip(arrays_a, arrays_b))


server_net = make_net()
global_arrays = [v.cpu().numpy() for v in server_net.state_dict().values()]

# a skewed (non-IID) client: mostly class 2
x = torch.randn(64, 6) + 1.5
y = torch.full((64,), 2, dtype=torch.long)
y[:8] = 0
data = (x, y)

results = {}
for name, cls in [("buggy", FedProxClient), ("fixed", FixedFedProxClient)]:
    for mu in (0.0, 10.0):
        torch.manual_seed(1)
        client = cls(data, mu=mu, lr=0.1, local_steps=20)
        results[(name, mu)] = client.fit([a.copy() for a in global_arrays])

# 1) with the detach, the proximal term is a constant: it does not require grad at all
probe = FedProxClient(data, mu=10.0)
probe.set_parameters(global_arrays)
with torch.no_grad():
    for p in probe.net.parameters():
        p.add_(0.1)
anchor = [torch.from_numpy(a) for a in global_arrays]
assert not probe.proximal_term(anchor).requires_grad

fixed_probe = FixedFedProxClient(data, mu=10.0)
fixed_probe.set_parameters(global_arrays)
with torch.no_grad():
    for p in fixed_probe.net.parameters():
        p.add_(0.1)
fixed_probe.proximal_term(anchor).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed_probe.net.parameters())

# 2) buggy client: mu=10 gives exactly the same local model as mu=0
for a, b in zip(results[("buggy", 0.0)], results[("buggy", 10.0)]):
    assert torch.equal(torch.from_numpy(a), torch.from_numpy(b))

# 3) fixed client: the proximal term keeps the local model near the global one
d_plain = drift(results[("fixed", 0.0)], global_arrays)
d_prox = drift(results[("fixed", 10.0)], global_arrays)
assert d_prox < 0.5 * d_plain, (d_prox, d_plain)
print("drift from global  mu=0: %.4f  buggy mu=10: %.4f  fixed mu=10: %.4f"
      % (d_plain, drift(results[("buggy", 10.0)], global_arrays), d_prox))
