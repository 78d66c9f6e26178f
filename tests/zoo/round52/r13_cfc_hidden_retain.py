"""expect: GL004 72, GL005 73
dynamic: confirm
source: https://github.com/mlech26l/ncps/issues/62

A closed-form continuous-time (CfC) recurrent model is trained on consecutive chunks of one long series and
its hidden state hx is handed from one batch to the next without being detached. The second backward()
then complained about going through the graph a second time, so the user added retain_graph=True: every
batch's graph now hangs off the previous batch's hx, the graph reachable from the loss grows each step, and
backward walks back into earlier batches. Those earlier nodes saved weights that optimizer.step() has since
updated in place, so the next backward fails with "modified by an inplace operation" (AsStridedBackward0 in
the report). The asserts count the autograd nodes reachable from the loss (they grow from batch to batch),
catch the in-place error that proves backward reached the previous batch, and show that detaching hx keeps
the graph a constant size and trains without retain_graph.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class CfCCell(nn.Module):
    def __init__(self, n_in, n_hid):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(n_in + n_hid, 16), nn.Tanh())
        self.ff1 = nn.Linear(16, n_hid)
        self.ff2 = nn.Linear(16, n_hid)
        self.time_a = nn.Linear(16, n_hid)
        self.time_b = nn.Linear(16, n_hid)

    def forward(self, x, h, dt):
        z = self.backbone(torch.cat([x, h], dim=-1))
        gate = torch.sigmoid(self.time_a(z) * dt + self.time_b(z))
        return torch.tanh(self.ff1(z)) * (1 - gate) + gate * torch.tanh(self.ff2(z))


class CfCRegressor(nn.Module):
    def __init__(self, n_in=3, n_hid=8):
        super().__init__()
        self.n_hid = n_hid
        self.cell = CfCCell(n_in, n_hid)
        self.head = nn.Linear(n_hid, 1)

    def forward(self, seq, hx=None):
        if hx is None:
            hx = seq.new_zeros(seq.shape[0], self.n_hid)
        outs = []
        for t in range(seq.shape[1]):
            hx = self.cell(seq[:, t], hx, 1.0)
            outs.append(self.head(hx))
        return torch.stack(outs, dim=1), hx


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train_carried(model, opt, chunks, sizes):
    hx = None
    for seq, target in chunks:
        pred, hx = model(seq, hx)
        loss = (pred - target).pow(2).mean()
        sizes.append(graph_size(loss))
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
    return sizes


def train_detached(model, opt, chunks):
    hx, sizes, losses = None, [], []
    for seq, target in chunks:
        if hx is not None:
            hx = hx.detach()
        pred, hx = model(seq, hx)
        loss = (pred - target).pow(2).mean()
        sizes.append(graph_size(loss))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return sizes, losses


series = torch.sin(torch.linspace(0, 24, 4 * 6 * 10 + 1)).reshape(1, -1, 1)
feats = torch.cat([series, series.pow(2), torch.cos(series)], dim=-1)
chunks = [(feats[:, i * 10:(i + 1) * 10].repeat(4, 1, 1), series[:, i * 10 + 1:(i + 1) * 10 + 1].repeat(4, 1, 1))
          for i in range(24)]

model = CfCRegressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
carried_sizes = []
try:
    train_carried(model, opt, chunks, carried_sizes)
    raise AssertionError("expected backward to reach the previous batch's stepped weights")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
# The second batch's loss already reaches the whole first batch, and its backward died there.
assert len(carried_sizes) == 2 and carried_sizes[1] > carried_sizes[0]

# Forward-only probe of the same carried state: the reachable graph grows linearly with batches.
probe = CfCRegressor()
hx, grow = None, []
for seq, target in chunks[:5]:
    pred, hx = probe(seq, hx)
    grow.append(graph_size((pred - target).pow(2).mean()))
assert all(b > a for a, b in zip(grow, grow[1:])), grow
assert grow[4] > 4 * grow[0]

model = CfCRegressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sizes, losses = train_detached(model, opt, chunks * 4)
assert len(set(sizes[1:])) == 1, sizes[:5]
assert sum(losses[-24:]) < sum(losses[:24])
print("ok: carried hx grows %s nodes per batch and hits a stepped weight; detached hx stays at %d nodes" % (grow, sizes[1]))
