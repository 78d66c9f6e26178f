"""
expect: GL004 61
dynamic: confirm
source: https://github.com/OpenNMT/OpenNMT-py/issues/403

The report: porting OpenNMT-py to PyTorch 0.4, the decoder state's detach() was rewritten so that it
only rebinds a loop variable (`h = h.detach()`) and keeps nothing; truncated BPTT then failed with
"Trying to backward through the graph a second time", and adding retain_graph=True was the tempting
fix. This program rebuilds that: DecoderState.detach() in decoder_state.py cuts nothing, the trainer
calls loss.backward(retain_graph=True) per chunk and steps once per sequence. The asserts show the
number of autograd nodes reached from each chunk's loss grows with the chunk index (every backward
re-walks all earlier chunks), while a state that really detaches keeps it constant.
"""
import torch
import torch.nn as nn

from decoder_state import DecoderState


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class InputFeedDecoder(nn.Module):
    def __init__(self, emb=8, hid=16, vocab=20):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.cell = nn.GRUCell(emb + hid, hid)
        self.out = nn.Linear(hid, vocab)

    def run_chunk(self, tokens, state):
        h, feed = state.hidden, state.input_feed
        logits = []
        for t in range(tokens.shape[1]):
            h = self.cell(torch.cat([self.embed(tokens[:, t]), feed], dim=1), h)
            feed = torch.tanh(h)
            logits.append(self.out(feed))
        state.update(h, feed)
        return torch.stack(logits, dim=1)


def train_sequence(model, opt, seq, chunk, state_cls):
    crit = nn.CrossEntropyLoss()
    state = state_cls(torch.zeros(seq.shape[0], 16), torch.zeros(seq.shape[0], 16))
    sizes = []
    opt.zero_grad()
    for start in range(0, seq.shape[1] - 1, chunk):
        inp = seq[:, start:start + chunk]
        tgt = seq[:, start + 1:start + chunk + 1]
        inp = inp[:, :tgt.shape[1]]
        logits = model.run_chunk(inp, state)
        loss = crit(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))
        sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)
        state.detach()
    opt.step()
    return sizes


class WorkingState(DecoderState):
    def detach(self):
        self.hidden = self.hidden.detach()
        self.input_feed = self.input_feed.detach()


torch.manual_seed(0)
seq = torch.randint(0, 20, (4, 41))
model = InputFeedDecoder()
opt = torch.optim.SGD(model.parameters(), lr=0.1)

sizes = train_sequence(model, opt, seq, chunk=5, state_cls=DecoderState)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] > 5 * sizes[0], sizes
fixed = train_sequence(model, opt, seq, chunk=5, state_cls=WorkingState)
assert len(set(fixed)) == 1, fixed
print("graph nodes per chunk, broken detach:", sizes)
print("graph nodes per chunk, real detach:  ", fixed)
