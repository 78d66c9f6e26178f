"""
expect: none
dynamic: dismiss
source: https://github.com/claws-lab/jodie/blob/HEAD/jodie.py

JODIE-style dynamic embeddings for user-item recommendation: user and item embedding tables start
as repeats of two learned initial vectors, interactions are grouped into t-batches (no user or
item twice in a batch), and each t-batch reads rows from the tables, predicts the next item's
embedding from the time-projected user embedding, updates both sides with RNN cells and writes
the new rows back in place (table[ids, :] = out). The loss is summed over every t-batch of a
timespan, backpropagated once, and then the tables are detached in place so the next timespan
starts without history; targets are detached copies on purpose. The in-place row writes do not
touch anything a backward formula saved (advanced indexing saves only the indices), and the
detach_() after each step stops the graph from growing. The asserts check that the gradients equal
those of an out-of-place (index_put) version, that the per-timespan graph sizes are identical from
one epoch to the next, that the initial vectors receive gradients, and that the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

U, I, FEAT, DIM, N = 16, 12, 2, 8, 360


class JODIE(nn.Module):
    def __init__(self):
        super().__init__()
        self.initial_user = nn.Parameter(F.normalize(torch.rand(DIM), dim=0))
        self.initial_item = nn.Parameter(F.normalize(torch.rand(DIM), dim=0))
        self.user_rnn = nn.RNNCell(DIM + 1 + FEAT, DIM)
        self.item_rnn = nn.RNNCell(DIM + 1 + FEAT, DIM)
        self.embedding_layer = nn.Linear(1, DIM)
        nn.init.normal_(self.embedding_layer.weight, 0, 0.1)
        self.prediction_layer = nn.Linear(U + (I + 1) + 2 * DIM, (I + 1) + DIM)

    def fresh_tables(self):
        return self.initial_user.repeat(U, 1), self.initial_item.repeat(I + 1, 1)

    def project(self, user_emb, td):
        return user_emb * (1 + self.embedding_layer(td))

    def update_user(self, u, i, td, feat):
        return F.normalize(self.user_rnn(torch.cat([i, td, feat], 1), u))

    def update_item(self, u, i, td, feat):
        return F.normalize(self.item_rnn(torch.cat([u, td, feat], 1), i))


def make_interactions():
    users = torch.randint(0, U, (N,))
    pref = (users % 4) * 3 + torch.randint(0, 3, (N,))
    items = torch.where(torch.rand(N) < 0.85, pref, torch.randint(0, I, (N,)))
    ts = torch.sort(torch.rand(N) * 100).values
    feats = torch.randn(N, FEAT) * 0.1
    last_u, last_i, prev_item = {}, {}, {}
    rows = []
    for j in range(N):
        u, i, t = users[j].item(), items[j].item(), ts[j].item()
        rows.append(dict(u=u, i=i, t=t, f=feats[j], td_u=(t - last_u.get(u, t)) / 10,
                         td_i=(t - last_i.get(i, t)) / 10, prev=prev_item.get(u, I)))
        last_u[u], last_i[i], prev_item[u] = t, t, i
    return rows


def tbatches_by_span(rows, n_spans=12):
    span_len = 100 / n_spans
    spans = [[] for _ in range(n_spans)]
    for r in rows:
        spans[min(int(r["t"] // span_len), n_spans - 1)].append(r)
    out = []
    for span in spans:
        tb_user, tb_item, batches = {}, {}, []
        for r in span:
            k = max(tb_user.get(r["u"], -1), tb_item.get(r["i"], -1)) + 1
            tb_user[r["u"]] = tb_item[r["i"]] = k
            if k == len(batches):
                batches.append([])
            batches[k].append(r)
        out.append([{"u": torch.tensor([r["u"] for r in b]), "i": torch.tensor([r["i"] for r in b]),
                     "prev": torch.tensor([r["prev"] for r in b]), "f": torch.stack([r["f"] for r in b]),
                     "td_u": torch.tensor([[r["td_u"]] for r in b]), "td_i": torch.tensor([[r["td_i"]] for r in b])}
                    for b in batches])
    return out


user_static, item_static = torch.eye(U), torch.eye(I + 1)


def timespan_loss(model, user_emb, item_emb, batches, inplace=True):
    loss = 0
    for b in batches:
        u_in = user_emb[b["u"], :]
        prev_emb = item_emb[b["prev"], :]
        projected = model.project(u_in, b["td_u"])
        pred = model.prediction_layer(torch.cat([projected, prev_emb, item_static[b["prev"]], user_static[b["u"]]], 1))
        i_in = item_emb[b["i"], :]
        loss = loss + F.mse_loss(pred, torch.cat([i_in, item_static[b["i"]]], 1).detach())

        u_out = model.update_user(u_in, i_in, b["td_u"], b["f"])
        i_out = model.update_item(u_in, i_in, b["td_i"], b["f"])
        if inplace:
            item_emb[b["i"], :] = i_out
            user_emb[b["u"], :] = u_out
        else:
            item_emb = item_emb.index_put((b["i"],), i_out)
            user_emb = user_emb.index_put((b["u"],), u_out)
        loss = loss + F.mse_loss(i_out, i_in.detach()) + F.mse_loss(u_out, u_in.detach())
    return loss, user_emb, item_emb


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


rows = make_interactions()
spans = tbatches_by_span(rows)
model = JODIE()

# in-place row writes give exactly the gradients of the out-of-place version
grads = []
for inplace in (True, False):
    model.zero_grad()
    ue, ie = model.fresh_tables()
    loss, _, _ = timespan_loss(model, ue, ie, spans[0], inplace=inplace)
    loss.backward()
    grads.append([p.grad.clone() for p in model.parameters()])
    model.zero_grad()
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(*grads))

optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-5)
start = [p.detach().clone() for p in model.parameters()]
epoch_losses, epoch_sizes, init_grad_seen = [], [], False
for epoch in range(8):
    user_emb, item_emb = model.fresh_tables()
    total, sizes = 0.0, []
    for batches in spans:
        loss, user_emb, item_emb = timespan_loss(model, user_emb, item_emb, batches)
        sizes.append(graph_size(loss))
        total += loss.item()
        loss.backward()
        init_grad_seen |= model.initial_user.grad is not None and model.initial_user.grad.abs().sum() > 0
        optimizer.step()
        optimizer.zero_grad()
        item_emb.detach_()
        user_emb.detach_()
        assert user_emb.grad_fn is None and item_emb.grad_fn is None
    epoch_losses.append(total)
    epoch_sizes.append(sizes)

assert all(s == epoch_sizes[0] for s in epoch_sizes)
assert init_grad_seen
assert all(not torch.equal(a, b) for a, b in zip(start, model.parameters()))
assert epoch_losses[-1] < 0.8 * epoch_losses[0]
print(f"epoch loss {epoch_losses[0]:.3f} -> {epoch_losses[-1]:.3f}; graph nodes per timespan {epoch_sizes[-1][:4]}...")
