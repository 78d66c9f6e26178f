"""expect: none
dynamic: dismiss
source: https://github.com/PetarV-/DGI/blob/master/layers/gcn.py

Deep Graph Infomax on a random graph: a one-layer GCN encodes the real features and a row-shuffled
corruption, a bilinear discriminator scores node embeddings against the sigmoid of the mean readout, and
BCE-with-logits trains encoder and discriminator together. layers.py adds the GCN bias with
`out += self.bias` right after torch.bmm and adds sampling biases to the discriminator scores with
`sc_1 += s_bias1`; neither tensor has been saved by the op that produced it (bmm saves its inputs, the
squeezed Bilinear output is not saved), so the in-place adds are safe. embed() returns detached embeddings
on purpose, for a separate linear probe. The asserts compare every gradient with an out-of-place reference
computation, check that training lowers the loss, and that the probe trains without touching the encoder.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import DGI

torch.manual_seed(0)
torch.set_num_threads(1)

N, F_IN, H = 30, 12, 16
features = torch.randn(1, N, F_IN)
a = (torch.rand(N, N) < 0.15).float()
a = ((a + a.t()) > 0).float() + torch.eye(N)
adj = (a / a.sum(1, keepdim=True)).unsqueeze(0)
labels = torch.cat([torch.ones(1, N), torch.zeros(1, N)], 1)
samp_bias1 = torch.zeros(1, N)
samp_bias2 = torch.zeros(1, N)

model = DGI(F_IN, H)


def reference_logits(m, seq1, seq2):
    def enc(s):
        return m.gcn.act(torch.bmm(adj, m.gcn.fc(s)) + m.gcn.bias)
    h1, h2 = enc(seq1), enc(seq2)
    c = torch.sigmoid(h1.mean(1)).unsqueeze(1).expand_as(h1)
    s1 = m.disc.f_k(h1, c).squeeze(2) + samp_bias1
    s2 = m.disc.f_k(h2, c).squeeze(2) + samp_bias2
    return torch.cat((s1, s2), 1)


perm = torch.randperm(N)
shuf = features[:, perm, :]
loss = F.binary_cross_entropy_with_logits(model(features, shuf, adj, samp_bias1, samp_bias2), labels)
grads = torch.autograd.grad(loss, list(model.parameters()))
ref_loss = F.binary_cross_entropy_with_logits(reference_logits(model, features, shuf), labels)
ref_grads = torch.autograd.grad(ref_loss, list(model.parameters()))
for g, r in zip(grads, ref_grads):
    assert torch.allclose(g, r, atol=1e-6) and g.abs().sum() > 0

opt = torch.optim.Adam(model.parameters(), lr=0.01)
history = []
for step in range(150):
    perm = torch.randperm(N)
    logits = model(features, features[:, perm, :], adj, samp_bias1, samp_bias2)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
assert sum(history[-10:]) < 0.75 * sum(history[:10]), history

encoder_before = copy.deepcopy(model.gcn.state_dict())
embeds, _ = model.embed(features, adj)
node_labels = torch.randint(0, 3, (N,))
probe = nn.Linear(H, 3)
probe_opt = torch.optim.Adam(probe.parameters(), lr=0.05)
probe_losses = []
for _ in range(50):
    probe_loss = F.cross_entropy(probe(embeds[0]), node_labels)
    probe_opt.zero_grad()
    probe_loss.backward()
    probe_opt.step()
    probe_losses.append(probe_loss.item())
assert probe_losses[-1] < probe_losses[0]
assert all(torch.equal(v, model.gcn.state_dict()[k]) for k, v in encoder_before.items())
print("DGI loss %.3f -> %.3f, probe loss %.3f -> %.3f" % (history[0], history[-1], probe_losses[0], probe_losses[-1]))
