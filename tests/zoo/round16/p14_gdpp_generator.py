"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/pytorch_GAN_zoo/pull/85

The PR makes the GDPP loss trainable in pytorch_GAN_zoo by calling
lossGFake.backward(retain_graph=True): the generator's adversarial loss and the GDPP diversity
loss both go through the same fake batch and discriminator features, so the first backward must
keep that graph for the second. This program rebuilds the generator step. Each iteration builds a
fresh graph, nothing carries over, and no optimizer step sits between the two backward calls.
The asserts show dropping retain_graph raises "backward through the graph a second time", the
two backward calls give exactly the gradient of the summed loss, and the graph size stays
constant across iterations while the generator trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Disc(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2))
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        f = self.feat(x)
        return self.out(f), f


def gdpp_loss(feat_real, feat_fake):
    def spectrum(f):
        f = f - f.mean(0)
        return torch.linalg.svdvals(f.t() @ f / f.size(0))
    return ((spectrum(feat_real) - spectrum(feat_fake)) ** 2).mean()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
D = Disc()
optG = torch.optim.Adam(G.parameters(), lr=1e-3)
real = torch.randn(32, 8)


def generator_step(retain=True):
    optG.zero_grad()
    fake = G(torch.randn(32, 4))
    pred_fake, feat_fake = D(fake)
    lossGFake = -pred_fake.mean()
    lossGFake.backward(retain_graph=retain)
    with torch.no_grad():
        _, feat_real = D(real)
    loss_gdpp = gdpp_loss(feat_real, feat_fake)
    size = graph_size(loss_gdpp)
    loss_gdpp.backward()
    return size


try:
    generator_step(retain=False)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "second time" in msg, msg

torch.manual_seed(5)
optG.zero_grad()
fake = G(torch.randn(32, 4))
pf, ff = D(fake)
with torch.no_grad():
    _, fr = D(real)
(-pf.mean() + gdpp_loss(fr, ff)).backward()
g_sum = G[0].weight.grad.clone()
torch.manual_seed(5)
generator_step()
assert torch.allclose(g_sum, G[0].weight.grad, atol=1e-6)

w0 = G[2].weight.detach().clone()
sizes = []
for _ in range(5):
    sizes.append(generator_step())
    optG.step()
assert len(set(sizes)) == 1, sizes
assert not torch.equal(w0, G[2].weight)
print("ok: retain_graph is needed for the second loss and the graph does not grow")
