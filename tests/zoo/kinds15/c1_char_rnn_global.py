"""
expect: GL004 37
dynamic: confirm
source: kind C

A character-level RNN is trained chunk by chunk through a free function that keeps the hidden
state in a module-level global, rebuilds it from its previous value on every call and runs
backward(retain_graph=True) inside; the script calls it in a loop. A hook on each call's input
embedding shows the backward of call k reaches all k calls so far (1, 2, 3, ...), whereas a fixed
function that detaches the global first reaches only its own call and trains the weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)

VOCAB, HID = 10, 12
embed = nn.Embedding(VOCAB, HID)
w_in = nn.Linear(HID, HID)
w_rec = nn.Linear(HID, HID, bias=False)
readout = nn.Linear(HID, VOCAB)
params = [*embed.parameters(), *w_in.parameters(), *w_rec.parameters(), *readout.parameters()]
opt = torch.optim.SGD(params, lr=0.05)

hidden = torch.zeros(1, HID)
hits = []


def fit_chunk(token, next_token):
    global hidden
    e = embed(token)
    e.register_hook(lambda g: hits.append(1))
    hidden = torch.tanh(w_in(e) + w_rec(hidden))
    loss = F.cross_entropy(readout(hidden), next_token)
    before = len(hits)
    loss.backward(retain_graph=True)
    return len(hits) - before


text = torch.randint(0, VOCAB, (7,))
reached = [fit_chunk(text[i:i + 1], text[i + 1:i + 2]) for i in range(6)]
opt.step()
opt.zero_grad()
print("calls reached per backward:", reached)
assert reached == [1, 2, 3, 4, 5, 6]

# Fixed variant: detach the carried global at the start of every call, no retained graph.
hidden = torch.zeros(1, HID)


def fit_chunk_v2(token, next_token):
    global hidden
    hidden = hidden.detach()
    e = embed(token)
    e.register_hook(lambda g: hits.append(1))
    hidden = torch.tanh(w_in(e) + w_rec(hidden))
    loss = F.cross_entropy(readout(hidden), next_token)
    before = len(hits)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return len(hits) - before


w0 = w_rec.weight.detach().clone()
reached_fixed = [fit_chunk_v2(text[i:i + 1], text[i + 1:i + 2]) for i in range(6)]
assert reached_fixed == [1] * 6
assert not torch.equal(w0, w_rec.weight.detach())
print("ok")
