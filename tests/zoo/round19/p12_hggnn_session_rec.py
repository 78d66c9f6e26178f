"""
expect: GL005 51
dynamic: confirm
source: https://github.com/0215Arthur/HG-GNN/issues/11

Training HG-GNN (heterogeneous global graph network for session-based recommendation) on
LastFM failed with "one of the variables needed for gradient computation has been modified by
an inplace operation"; the author's fix was to remove an "irregular assignment (inplace
operation)" in the model code. This program rebuilds a session encoder in that style: item
embeddings go through a gated graph step whose tanh output is then patched by index assignment
(the last position overwritten with a user/global embedding). tanh saves its output for
backward, so the assignment invalidates it: backward raises the in-place error (caught and
asserted), while building the patched tensor out of place trains the recommender.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ITEMS, N_USERS, D, L = 50, 10, 16, 6


class SessionGraphEncoder(nn.Module):
    def __init__(self, out_of_place=False):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, D)
        self.user_emb = nn.Embedding(N_USERS, D)
        self.w_in = nn.Linear(D, D)
        self.w_out = nn.Linear(D, D)
        self.gate = nn.Linear(2 * D, D)
        self.readout = nn.Linear(D, D)
        self.out_of_place = out_of_place

    def session_adjacency(self, seq):
        A = torch.zeros(seq.shape[0], L, L)
        A[:, torch.arange(L - 1), torch.arange(1, L)] = 1.0
        return A / A.sum(-1, keepdim=True).clamp(min=1)

    def gnn_step(self, h, A):
        msg_in = A @ self.w_in(h)
        msg_out = A.transpose(1, 2) @ self.w_out(h)
        return torch.tanh(self.gate(torch.cat([msg_in + h, msg_out], -1)))

    def forward(self, seq, user):
        h = self.item_emb(seq)
        hidden = self.gnn_step(h, self.session_adjacency(seq))
        u = self.user_emb(user)
        if self.out_of_place:
            hidden = torch.cat([hidden[:, :-1], (hidden[:, -1] + u)[:, None]], dim=1)
        else:
            hidden[:, -1] = hidden[:, -1] + u
        session = self.readout(hidden.mean(1))
        return session @ self.item_emb.weight.T


seq = torch.randint(0, N_ITEMS, (8, L))
user = torch.randint(0, N_USERS, (8,))
target = torch.randint(0, N_ITEMS, (8,))

model = SessionGraphEncoder()
loss = F.cross_entropy(model(seq, user), target)
try:
    loss.backward()
    raise AssertionError("expected the index assignment to break backward")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e)

fixed = SessionGraphEncoder(out_of_place=True)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
g0 = fixed.gate.weight.detach().clone()
losses = []
for _ in range(15):
    loss = F.cross_entropy(fixed(seq, user), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert not torch.equal(fixed.gate.weight, g0) and losses[-1] < losses[0]
print("p12 ok: index assignment into the saved tanh output breaks backward")
