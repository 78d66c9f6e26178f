"""
expect: GL005 layers.py:13, GL005 layers.py:14
dynamic: confirm
source: https://github.com/LibCity/Bigscity-LibCity/issues/303

STSGCN-style traffic flow forecaster: a ReLU input embedding, then stacked synchronous
spatial-temporal graph conv layers, each of which first adds learned temporal and spatial
position embeddings to its input. The embedding module does that with `data += ...`
(layers.py), in place on the tensor it was handed. For the first layer that tensor is the
output of the ReLU embedding, which ReluBackward saved to compute its gradient, so the
in-place additions bump its version and backward raises "modified by an inplace
operation". The asserts catch that RuntimeError on the model as written, then show the
fix from the report (hand each layer `data.clone()`) trains: the loss backpropagates, the
input embedding and the position embeddings get gradients, and a few steps lower the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import STSGCL, local_st_adjacency


class STSGCN(nn.Module):
    def __init__(self, adj, input_length=6, horizon=2, hidden=8, clone_inputs=False):
        super().__init__()
        n = adj.shape[0]
        self.register_buffer("adj", local_st_adjacency(adj, steps=3))
        self.first_layer_embedding = nn.Linear(1, hidden)
        self.layers = nn.ModuleList([
            STSGCL(input_length, n, hidden, hidden),
            STSGCL(input_length - 2, n, hidden, hidden),
        ])
        self.output = nn.Linear((input_length - 4) * hidden, horizon)
        self.clone_inputs = clone_inputs

    def forward(self, x):  # x: (batch, time, nodes, 1)
        data = torch.relu(self.first_layer_embedding(x))
        for layer in self.layers:
            data = layer(data.clone() if self.clone_inputs else data, self.adj)
        b, t, n, c = data.shape
        out = self.output(data.permute(0, 2, 1, 3).reshape(b, n, t * c))
        return out.permute(0, 2, 1)  # (batch, horizon, nodes)


def train_steps(model, x, y, steps):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        loss = F.smooth_l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
torch.set_num_threads(1)
n_nodes = 5
road = (torch.rand(n_nodes, n_nodes) < 0.4).float()
road = ((road + road.T) > 0).float()
x = torch.randn(16, 6, n_nodes, 1)
y = x[:, -2:, :, 0] * 0.5 + 0.1

model = STSGCN(road)
try:
    train_steps(model, x, y, steps=1)
    raise AssertionError("expected the in-place embedding to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

torch.manual_seed(0)
fixed = STSGCN(road, clone_inputs=True)
loss = F.smooth_l1_loss(fixed(x), y)
loss.backward()
assert fixed.first_layer_embedding.weight.grad.abs().sum() > 0
assert fixed.layers[0].position_embedding.temporal_emb.grad.abs().sum() > 0
fixed.zero_grad()
losses = train_steps(fixed, x, y, steps=30)
assert losses[-1] < losses[0]
print("with cloned layer inputs the forecaster trains: %.3f -> %.3f" % (losses[0], losses[-1]))
