"""
expect: GL004 46
dynamic: confirm
source: https://github.com/davidnabergoj/torchflows/issues/8

Probabilistic autoencoder: an autoencoder is trained, then a normalizing flow is
fit on its latent codes with a `fit()` helper. The latent codes were passed to
`fit()` straight out of the encoder, still attached to its graph, so the second
epoch failed with "backward through the graph a second time"; the "fix" was
`backward(retain_graph=True)` inside the fit loop. Now every epoch reaches back
through the encoder's old graph: the frozen-by-intent encoder keeps piling up
gradient each epoch. The asserts show that growth, the original error, and that
detaching the codes before `fit()` trains the flow alone.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class AffineCoupling(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.half = d // 2
        self.net = nn.Sequential(nn.Linear(self.half, 32), nn.Tanh(), nn.Linear(32, 2 * (d - self.half)))

    def forward(self, z):
        a, b = z[:, :self.half], z[:, self.half:]
        s, t = self.net(a).chunk(2, dim=1)
        s = torch.tanh(s)
        return torch.cat([a, b * s.exp() + t], dim=1), s.sum(1)


class Flow(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(d) for _ in range(3)])
        self.base = torch.distributions.Normal(0.0, 1.0)

    def fit(self, codes, epochs=4, retain=True):
        opt = torch.optim.Adam(self.parameters(), lr=1e-3)
        for _ in range(epochs):
            opt.zero_grad()
            loss = -self.log_prob(codes).mean()
            loss.backward(retain_graph=retain)
            opt.step()

    def log_prob(self, z):
        total = 0.0
        for layer in self.layers:
            z, ld = layer(z)
            z = z.flip(1)
            total = total + ld
        return self.base.log_prob(z).sum(1) + total


encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
x = torch.randn(64, 10)

codes = encoder(x)  # still attached to the encoder graph
Flow(4).fit(codes, epochs=1)
g1 = encoder[0].weight.grad.norm().item()
encoder.zero_grad()
Flow(4).fit(codes, epochs=4)
g4 = encoder[0].weight.grad.norm().item()
assert g1 > 0 and g4 > 2 * g1  # each epoch backprops through the same old encoder graph again

err = None
try:
    Flow(4).fit(encoder(x), epochs=2, retain=False)
except RuntimeError as e:
    err = str(e)
assert err is not None and "second time" in err

encoder.zero_grad()
flow = Flow(4)
flow.fit(encoder(x).detach(), epochs=4, retain=False)
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in encoder.parameters())
assert all(p.grad is not None for p in flow.parameters())
print("ok")
