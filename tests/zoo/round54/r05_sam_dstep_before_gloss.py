"""
expect: GL005 76
dynamic: confirm
source: https://github.com/FenTechSolutions/CausalDiscoveryToolbox/issues/66

Structural Agnostic Model (SAM) style causal discovery: a learned adjacency sampler
masks the parents of each variable, per-variable generators regenerate the data, and a
discriminator separates generated from real samples. In one iteration the code builds
both discriminator passes (the detached one for the D loss and the attached one for the
generator loss), backpropagates the D loss and calls d_optimizer.step(), and only then
backpropagates the generator loss. The step rewrote the discriminator weights in place,
and those weights were saved by the generator-loss graph, so backward raises "one of the
variables needed for gradient computation has been modified by an inplace operation"
(the reported TBackward error). The asserts catch it, and show that evaluating the
discriminator for the generator loss after the D step trains without error.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_VAR, BATCH = 4, 32


class GraphSampler(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weights = nn.Parameter(torch.full((n, n), 2.0))
        self.register_buffer("mask", 1 - torch.eye(n))

    def forward(self):
        return torch.sigmoid(self.weights) * self.mask


class SAMGenerators(nn.Module):
    def __init__(self, n, hidden=8):
        super().__init__()
        self.layer1 = nn.Parameter(torch.randn(n, n + 1, hidden) * 0.3)   # parents + noise
        self.layer2 = nn.Parameter(torch.randn(n, hidden) * 0.3)

    def forward(self, data, noise, graph):
        inputs = torch.cat([data.unsqueeze(1) * graph.t().unsqueeze(0), noise.unsqueeze(-1)], -1)
        h = torch.tanh(torch.einsum("bvi,vih->bvh", inputs, self.layer1))
        return torch.einsum("bvh,vh->bv", h, self.layer2)


discriminator = nn.Sequential(nn.Linear(2 * N_VAR, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
sampler, sam = GraphSampler(N_VAR), SAMGenerators(N_VAR)
d_optimizer = torch.optim.Adam(discriminator.parameters(), lr=1e-2)
g_optimizer = torch.optim.Adam(sam.parameters(), lr=1e-2)
graph_optimizer = torch.optim.Adam(sampler.parameters(), lr=1e-2)
bce = nn.BCEWithLogitsLoss()
data = torch.randn(BATCH, N_VAR)
data[:, 1] += 0.8 * data[:, 0]


def zero_all():
    for opt in (g_optimizer, graph_optimizer, d_optimizer):
        opt.zero_grad()


def discriminator_loss(generated):
    disc_fake = discriminator(torch.cat([generated.detach(), data], 1))
    disc_real = discriminator(torch.cat([data, data], 1))
    return bce(disc_fake, torch.zeros_like(disc_fake)) + bce(disc_real, torch.ones_like(disc_real))


def sam_iteration():
    zero_all()
    graph = sampler()
    generated = sam(data, torch.randn(BATCH, N_VAR), graph)
    disc_loss = discriminator_loss(generated)
    disc_gen = discriminator(torch.cat([generated, data], 1))
    disc_loss.backward()
    d_optimizer.step()
    gen_loss = bce(disc_gen, torch.ones_like(disc_gen)) + 1e-3 * graph.sum()
    gen_loss.backward()
    g_optimizer.step()
    graph_optimizer.step()


def sam_iteration_reordered():
    zero_all()
    graph = sampler()
    generated = sam(data, torch.randn(BATCH, N_VAR), graph)
    discriminator_loss(generated).backward()
    d_optimizer.step()
    disc_gen = discriminator(torch.cat([generated, data], 1))
    gen_loss = bce(disc_gen, torch.ones_like(disc_gen)) + 1e-3 * graph.sum()
    gen_loss.backward()
    g_optimizer.step()
    graph_optimizer.step()


try:
    sam_iteration()
    raise AssertionError("expected the in-place version error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

before = sampler.weights.detach().clone()
for _ in range(5):
    sam_iteration_reordered()
assert sampler.weights.grad is not None and not torch.equal(before, sampler.weights)
print("D step before the generator backward raised the version error; reordered loop trains")
