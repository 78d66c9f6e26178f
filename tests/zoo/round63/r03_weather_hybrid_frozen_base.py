"""
expect: GL001 58
dynamic: confirm
source: https://github.com/Yalt8826/WeatherForecast_STGCN_MAML/blob/d722b54e5c3c140147928d656a90fd13047520f1/hybrid_model.py#L63

A regional weather emulator stacks a trainable LSTM on top of a pre-trained
spatio-temporal graph network (STGCN) over ERA5 grid nodes.  The hybrid class
takes a `freeze_base` flag, and the regional adaptation script builds it with
`freeze_base=False  # Allow both STGCN and LSTM to be fine-tuned` and hands
all of its parameters to the optimizer.  But the method that runs the graph
layers always wraps them in `torch.no_grad()`, so the base features come out
without history whatever the flag says: the graph convolutions never receive a
gradient and keep their pre-trained values, while only the LSTM and the head
adapt.  The reduction uses a two-layer graph-conv encoder on a 5-node toy grid
and a short fine-tuning loop.  The asserts show that with `freeze_base=False`
the encoder weights have no `.grad` and are bit-for-bit unchanged after the
steps although the LSTM moved, and that the fixed feature method (grad enabled
unless the base is frozen) updates the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, T_IN, N_VARS, HORIZON = 5, 6, 3, 2


class GraphEncoder(nn.Module):
    """Stand-in for the pre-trained STGCN spatial layers."""

    def __init__(self, in_ch, hidden):
        super().__init__()
        self.hidden = hidden
        self.conv1 = nn.Linear(in_ch, hidden)
        self.conv2 = nn.Linear(hidden, hidden)

    def forward(self, x, adj):  # x: [T, N, C]
        h = F.relu(adj @ self.conv1(x))
        return F.relu(adj @ self.conv2(h))


class HybridForecaster(nn.Module):
    def __init__(self, base, lstm_hidden=16, freeze_base=True):
        super().__init__()
        self.base = base
        self.freeze_base = freeze_base
        if freeze_base:
            for p in self.base.parameters():
                p.requires_grad = False
        self.lstm = nn.LSTM(base.hidden, lstm_hidden, batch_first=True)
        self.head = nn.Linear(lstm_hidden, HORIZON * N_VARS)

    def extract_base_features(self, x, adj):
        """Spatial features from the graph encoder (no final dropout)."""
        with torch.no_grad():
            h = self.base(x, adj)
        return h

    def forward(self, x, adj):
        feats = self.extract_base_features(x, adj)  # [T, N, F]
        seq = feats.permute(1, 0, 2)  # one temporal sequence per node
        out, _ = self.lstm(seq)
        pred = self.head(out[:, -1])  # [N, HORIZON * N_VARS]
        return pred.view(N_NODES, HORIZON, N_VARS).permute(1, 0, 2)


class HybridForecasterFixed(HybridForecaster):
    def extract_base_features(self, x, adj):
        with torch.set_grad_enabled(torch.is_grad_enabled() and not self.freeze_base):
            return self.base(x, adj)


def normalized_ring_adjacency(n):
    a = torch.eye(n)
    for i in range(n):
        a[i, (i + 1) % n] = a[(i + 1) % n, i] = 1.0
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


def finetune(model_cls):
    torch.manual_seed(0)
    base = GraphEncoder(N_VARS, 8)
    model = model_cls(base, freeze_base=False)
    adj = normalized_ring_adjacency(N_NODES)
    x = torch.randn(T_IN, N_NODES, N_VARS)
    y = torch.randn(HORIZON, N_NODES, N_VARS)
    base_before = [p.detach().clone() for p in model.base.parameters()]
    lstm_before = [p.detach().clone() for p in model.lstm.parameters()]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        opt.zero_grad()
        loss = F.mse_loss(model(x, adj), y)
        loss.backward()
        opt.step()
    base_grads = [p.grad for p in model.base.parameters()]
    base_moved = any(not torch.equal(a, b) for a, b in zip(base_before, model.base.parameters()))
    lstm_moved = any(not torch.equal(a, b) for a, b in zip(lstm_before, model.lstm.parameters()))
    return base_grads, base_moved, lstm_moved


grads, base_moved, lstm_moved = finetune(HybridForecaster)
assert all(g is None for g in grads), "graph encoder got a gradient"
assert not base_moved and lstm_moved

grads, base_moved, lstm_moved = finetune(HybridForecasterFixed)
assert all(g is not None and g.abs().sum() > 0 for g in grads)
assert base_moved and lstm_moved

print("r03 ok")
