"""
expect: none
dynamic: dismiss
source: https://github.com/hidasib/GRU4Rec_PyTorch_Official/blob/d1fc31105577665d2f105de1c8d9a38d223a9a22/gru4rec_pytorch.py

Session-based recommendation with GRU4Rec and session-parallel mini-batches:
each of the B slots of a batch follows one user session event by event, the GRU
hidden state of every slot is kept in a Python list H and carried to the next
mini-batch.  Two lines look alarming: `for h in H: h.detach_()` right before the
forward pass, and the reset hook that runs `H[i][finished_mask] = 0` under
torch.no_grad() when a slot starts a new session - an in-place write into a
tensor that came out of the recorded GRU.  Both are deliberate and correct: the
reset happens after the previous mini-batch's backward has consumed that graph,
and detach_ truncates back-propagation to the current step so the graph never
grows.  The asserts show that training runs cleanly, that a freshly started
session really begins from a zero state, that the hidden states entering a step
have no history, and that the model learns the next-item rule.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_ITEMS, HIDDEN, BATCH = 20, 32, 8


class GRU4RecModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_ITEMS, HIDDEN)
        self.gru = nn.GRUCell(HIDDEN, HIDDEN)
        self.out = nn.Embedding(N_ITEMS, HIDDEN)
        self.bias = nn.Embedding(N_ITEMS, 1)

    def hidden_step(self, X, H):
        h = self.gru(self.embed(X), H[0])
        H[0] = h  # the list is updated for the next mini-batch
        return h

    def forward(self, X, H, Y):
        h = self.hidden_step(X, H)
        return h @ self.out(Y).T + self.bias(Y).T  # scores against the in-batch targets


def make_sessions(n, rng):
    sessions = []
    for _ in range(n):
        cur = int(rng.integers(N_ITEMS))
        s = [cur]
        for _ in range(int(rng.integers(3, 8))):
            cur = (3 * cur + 1) % N_ITEMS
            s.append(cur)
        sessions.append(s)
    return sessions


def session_parallel(sessions, reset_hook):
    """Yield (input items, target items); call reset_hook when slots change session."""
    nxt = BATCH
    slot_sess = list(range(BATCH))
    pos = [0] * BATCH
    while True:
        finished = np.zeros(BATCH, dtype=bool)
        for b in range(BATCH):
            if pos[b] + 1 >= len(sessions[slot_sess[b]]):
                if nxt >= len(sessions):
                    return
                slot_sess[b], pos[b] = nxt, 0
                nxt += 1
                finished[b] = True
        if finished.any():
            reset_hook(finished)
        X = torch.tensor([sessions[s][p] for s, p in zip(slot_sess, pos)])
        Y = torch.tensor([sessions[s][p + 1] for s, p in zip(slot_sess, pos)])
        pos = [p + 1 for p in pos]
        yield X, Y


def xe_loss(R):
    return nn.functional.cross_entropy(R, torch.arange(R.shape[0]))


rng = np.random.default_rng(0)
sessions = make_sessions(400, rng)
model = GRU4RecModel()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)

H = [torch.zeros(BATCH, HIDDEN)]
zeroed_ok = []


def adjust_hidden(finished_mask):
    with torch.no_grad():
        for i in range(len(H)):
            H[i][torch.from_numpy(finished_mask)] = 0
    zeroed_ok.append(bool((H[0][torch.from_numpy(finished_mask)] == 0).all()))


losses, history_free, first_steps = [], [], []
for epoch in range(3):
    H[0] = torch.zeros(BATCH, HIDDEN)
    ep = []
    for X, Y in session_parallel(sessions, adjust_hidden):
        for h in H:
            h.detach_()
        history_free.append(H[0].grad_fn is None)
        model.zero_grad()
        R = model(X, H, Y)
        L = xe_loss(R)
        L.backward()
        opt.step()
        ep.append(L.item())
        if len(first_steps) < 5:
            first_steps.append(L.item())
    losses.append(float(np.mean(ep)))

assert all(zeroed_ok) and len(zeroed_ok) > 50
assert all(history_free)
assert losses[-1] < 0.5 * np.mean(first_steps), (first_steps, losses)

# next-item accuracy on fresh sessions
test = make_sessions(50, np.random.default_rng(1))
hits = total = 0
with torch.no_grad():
    for s in test:
        h = torch.zeros(1, HIDDEN)
        for a, b in zip(s[:-1], s[1:]):
            h = model.gru(model.embed(torch.tensor([a])), h)
            scores = h @ model.out.weight.T + model.bias.weight.T
            hits += int(scores.argmax().item() == b)
            total += 1
acc = hits / total
assert acc > 0.8, acc
print(f"epoch losses {[round(l, 3) for l in losses]}, next-item accuracy {acc:.2f}")
