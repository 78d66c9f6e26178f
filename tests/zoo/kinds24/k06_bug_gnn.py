"""
expect: GL001 35
dynamic: confirm
source: kinds check 24, kind 6 (written for this check)

The graph autoencoder's forward runs its freshly initialised feature decoder and edge head
inside `with torch.no_grad():` "to save activation memory", while the GCN encoder and node
classifier stay attached; Adam gets `model.parameters()`. The asserts show both reconstruction
terms are nonzero, yet the decoder and edge head get no gradient and are unchanged by the
step, while a separate subclass without the region trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class GraphAutoencoder(nn.Module):
    def __init__(self, d_in=8, d_h=16, n_cls=3):
        super().__init__()
        self.gc1, self.gc2 = nn.Linear(d_in, d_h), nn.Linear(d_h, d_h)
        self.classifier = nn.Linear(d_h, n_cls)
        self.feat_decoder = nn.Sequential(nn.Linear(d_h, d_h), nn.ReLU(), nn.Linear(d_h, d_in))
        self.edge_head = nn.Linear(d_h, d_h)

    def encode(self, x, a_norm):
        h = torch.relu(a_norm @ self.gc1(x))
        return torch.relu(a_norm @ self.gc2(h))

    def forward(self, x, a_norm):
        h = self.encode(x, a_norm)
        logits = self.classifier(h)
        with torch.no_grad():  # decoders only need values here; saves activation memory
            x_hat = self.feat_decoder(h)
            e = self.edge_head(h)
            edge_logits = e @ e.t()
        return logits, x_hat, edge_logits


class AttachedGraphAutoencoder(GraphAutoencoder):
    def forward(self, x, a_norm):
        h = self.encode(x, a_norm)
        e = self.edge_head(h)
        return self.classifier(h), self.feat_decoder(h), e @ e.t()


def train_step(model, x, adj, a_norm, y, mask):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    logits, x_hat, edge_logits = model(x, a_norm)
    rec = F.mse_loss(x_hat, x) + F.binary_cross_entropy_with_logits(edge_logits, adj)
    loss = F.cross_entropy(logits[mask], y[mask]) + rec
    opt.zero_grad()
    loss.backward()
    opt.step()
    moved = {n: not torch.equal(before[n], p) for n, p in model.named_parameters()}
    return moved, rec.item()


n = 12
adj = (torch.rand(n, n) > 0.7).float()
adj = ((adj + adj.t() + torch.eye(n)) > 0).float()
a_norm = adj / adj.sum(1, keepdim=True)
x, y, mask = torch.randn(n, 8), torch.randint(0, 3, (n,)), torch.arange(n) < 6

model = GraphAutoencoder()
moved, rec = train_step(model, x, adj, a_norm, y, mask)
assert rec > 1e-3
assert moved["gc1.weight"] and moved["classifier.weight"]
assert not any(moved[k] for k in moved if k.startswith(("feat_decoder", "edge_head"))), moved
assert all(p.grad is None for p in model.feat_decoder.parameters())

fixed = AttachedGraphAutoencoder()
moved_fixed, _ = train_step(fixed, x, adj, a_norm, y, mask)
assert all(moved_fixed.values()), moved_fixed
print("bug confirmed: decoders run under no_grad in forward never train")
