"""
expect: none
dynamic: dismiss
source: https://github.com/JiaxuanYou/graph-generation/blob/2455edf70d3899b5b54ad4a2320163e15a81c2f3/baselines/graphvae/model.py

The GraphVAE baseline shipped with GraphRNN decodes a graph as the upper triangle
of a sigmoid adjacency. Because node order is arbitrary, forward() first matches
the generated graph to the input graph: it takes out_tensor = out.cpu().data,
rebuilds a full matrix from it, fills an edge-similarity tensor and runs max-pooling
matching in plain tensors, converts the scores with .numpy() and solves the
assignment with scipy's linear_sum_assignment, and only then permutes the target
adjacency and computes the reconstruction BCE on the live out (plus the KL term).
The .data copy and the NumPy round trip look like they cut the decoder off, but
they only produce a discrete permutation applied to the target, which has no
gradient anyway; the loss itself is built from out, so the encoder and decoder are
trained. This reduction uses 4-node graphs, a simplified similarity and a brute-
force search over the 24 permutations instead of scipy. The asserts show that every
parameter gets a non-zero gradient, that these gradients are identical to the ones
obtained when the same permutation is supplied as a constant (the matching path
contributes nothing, as intended), and that the loss decreases with training.
"""
import itertools

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N = 4
TRIU = torch.triu(torch.ones(N, N)) == 1


class GraphVAE(nn.Module):
    def __init__(self, hidden=16, latent=4):
        super().__init__()
        self.conv1 = nn.Linear(N, hidden)
        self.conv2 = nn.Linear(hidden, hidden)
        self.enc_mu = nn.Linear(hidden, latent)
        self.enc_lsgms = nn.Linear(hidden, latent)
        self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(),
                                 nn.Linear(hidden, N * (N + 1) // 2))

    def recover_full_adj(self, vec):
        adj = torch.zeros(N, N)
        adj[TRIU] = vec
        return adj + adj.t() - torch.diag(torch.diag(adj))

    def match(self, adj, recon):
        feat, feat_r = adj.sum(1), recon.sum(1)
        score = np.zeros((N, N))
        for i in range(N):
            for a in range(N):
                score[i, a] = 1.0 / (abs(feat[i] - feat_r[a]) + 1.0)
        best, best_perm = -1.0, None
        for perm in itertools.permutations(range(N)):
            s = sum(score[i, perm[i]] for i in range(N))
            if s > best:
                best, best_perm = s, perm
        return list(best_perm)

    def forward(self, features, adj, fixed_perm=None):
        x = F.relu(self.conv1(adj @ features))
        x = self.conv2(adj @ x)
        graph_h = x.sum(0)
        mu, lsgms = self.enc_mu(graph_h), self.enc_lsgms(graph_h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * lsgms)
        out = torch.sigmoid(self.dec(z))

        out_tensor = out.cpu().data
        recon_adj = self.recover_full_adj(out_tensor)
        perm = fixed_perm if fixed_perm is not None else self.match(adj.numpy(), recon_adj.numpy())

        adj_permuted = adj[perm, :][:, perm]
        adj_vectorized = adj_permuted[TRIU]
        adj_recon_loss = F.binary_cross_entropy(out, adj_vectorized)
        loss_kl = -0.5 * torch.sum(1 + lsgms - mu.pow(2) - lsgms.exp()) / (N * N)
        self.last_perm = perm
        return adj_recon_loss + loss_kl


def random_graph():
    a = (torch.rand(N, N) < 0.5).float()
    a = torch.triu(a, 1)
    return a + a.t() + torch.eye(N)


graphs = [random_graph() for _ in range(8)]
feats = torch.eye(N)

model = GraphVAE()

# gradients with the matching path vs the same permutation given as a constant
torch.manual_seed(5)
loss_a = model(feats, graphs[0])
model.zero_grad()
loss_a.backward()
grads_a = [p.grad.clone() for p in model.parameters()]
assert all(g.abs().sum() > 0 for g in grads_a)

torch.manual_seed(5)
loss_b = model(feats, graphs[0], fixed_perm=list(model.last_perm))
model.zero_grad()
loss_b.backward()
grads_b = [p.grad.clone() for p in model.parameters()]
assert torch.equal(loss_a.detach(), loss_b.detach())
assert all(torch.equal(a, b) for a, b in zip(grads_a, grads_b))

# training
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
epoch_losses = []
for epoch in range(40):
    total = 0.0
    for g in graphs:
        loss = model(feats, g)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    epoch_losses.append(total)
assert np.mean(epoch_losses[-5:]) < 0.8 * np.mean(epoch_losses[:5]), epoch_losses

print("r19 ok: matching on .data/numpy leaves gradients intact; loss %.2f -> %.2f"
      % (epoch_losses[0], epoch_losses[-1]))
