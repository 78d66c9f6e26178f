"""
expect: GL005 main.py:65, GL005 main.py:67, GL005 main.py:69
dynamic: confirm
source: https://github.com/yujianke100/GFDN/issues/4

Group-based fraud detection on a user-item graph: an autoencoder encodes the users that own labelled
edges, and its hidden codes are injected into the GNN stream by index assignment,
`x[edge_u_id] = x[edge_u_id] + h[i]`, between graph convolutions. Every convolution block (gnn.py) ends in
F.relu, and relu saves its own output for backward; the index assignment writes into exactly that saved
output, so backward stops with "one of the variables needed for gradient computation has been modified by
an inplace operation ... output 0 of Relu", the error in the report. The maintainers' workaround
replaces relu by a torch.where version that does not keep its output, after which the same index
assignments are harmless. The asserts show the RuntimeError for the relu blocks, and gradients on every
parameter plus a falling loss for the torch.where blocks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gnn import GCN_NET, GCN_NET_WHERE

torch.manual_seed(0)
torch.set_num_threads(1)


class AE(nn.Module):
    def __init__(self, n_enc, hidden, n_input, n_z):
        super().__init__()
        self.enc_in = nn.Linear(n_input, n_enc)
        self.hidden_enc = nn.ModuleList(nn.Linear(n_enc, n_enc) for _ in range(hidden))
        self.z_layer = nn.Linear(n_enc, n_z)
        self.dec_in = nn.Linear(n_z, n_enc)
        self.x_bar_layer = nn.Linear(n_enc, n_input)

    def forward(self, x):
        enc_result = [F.relu(self.enc_in(x))]
        for layer in self.hidden_enc:
            enc_result.append(F.relu(layer(enc_result[-1])))
        z = self.z_layer(enc_result[-1])
        x_bar = self.x_bar_layer(F.relu(self.dec_in(z)))
        return x_bar, enc_result, z


class FraudGNN(nn.Module):
    def __init__(self, n_input, n_item, n_enc=16, hidden=1, n_z=8, n_clusters=2, block=GCN_NET):
        super().__init__()
        self.user_proj = nn.Linear(n_input, n_input)
        self.i_emb = nn.Linear(n_item, n_input)
        self.ae = AE(n_enc, hidden, n_input, n_z)
        self.gnn_in = block(n_input, n_enc)
        self.hidden_gnn = nn.ModuleList(block(n_enc, n_enc) for _ in range(hidden))
        self.gnn_nz = block(n_enc, n_z)
        self.gnn_cluster = block(n_z, n_clusters)

    def node_features(self, u_x, i_x, u_mask, i_mask):
        x = torch.zeros(u_mask.shape[0], u_x.shape[1])
        x[u_mask] = self.user_proj(u_x)
        x[i_mask] = self.i_emb(i_x)
        return x

    def forward(self, x, edge_u_x, edge_u_id, adj):
        x_bar, h, z = self.ae(edge_u_x)
        x = self.gnn_in(x, adj)
        for i, layer in enumerate(self.hidden_gnn):
            x[edge_u_id] = x[edge_u_id] + h[i]
            x = layer(x, adj)
        x[edge_u_id] = x[edge_u_id] + h[-1]
        x = self.gnn_nz(x, adj)
        x[edge_u_id] = x[edge_u_id] + z
        x = self.gnn_cluster(x, adj, active=False)
        return x[edge_u_id], x_bar


def make_graph(n_users=12, n_items=8, n_edges=30):
    n = n_users + n_items
    u = torch.randint(0, n_users, (n_edges,))
    it = torch.randint(n_users, n, (n_edges,))
    adj = torch.eye(n)
    adj[u, it] = 1.0
    adj[it, u] = 1.0
    deg = adj.sum(1)
    adj = adj / deg.sqrt()[:, None] / deg.sqrt()[None, :]
    u_mask = torch.arange(n) < n_users
    return adj, u_mask, ~u_mask, torch.unique(u)


def train(block, steps=20):
    torch.manual_seed(1)
    adj, u_mask, i_mask, edge_u_id = make_graph()
    u_x, i_x = torch.randn(12, 10), torch.randn(8, 6)
    labels = torch.randint(0, 2, (edge_u_id.shape[0],))
    model = FraudGNN(n_input=10, n_item=6, block=block)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        x = model.node_features(u_x, i_x, u_mask, i_mask)
        logits, x_bar = model(x, x[edge_u_id], edge_u_id, adj)
        loss = F.cross_entropy(logits, labels) + F.mse_loss(x_bar, u_x[edge_u_id])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


try:
    train(GCN_NET)
    raise AssertionError("the relu blocks should break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
    assert "output 0 of Relu" in str(err)

model, losses = train(GCN_NET_WHERE)
assert all(p.grad is not None for p in model.parameters())
assert losses[-1] < losses[0]
print(f"torch.where blocks: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
