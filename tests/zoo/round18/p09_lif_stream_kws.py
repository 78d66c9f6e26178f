"""
expect: GL004 84
dynamic: confirm
source: https://github.com/norse/norse/pull/131

The PR tried to make norse's LIF cells detach a state that is passed back in, after issue
#130 showed that reusing the returned state `s` in a second forward crashes the next
backward ("Trying to backward through the graph a second time"). The reviewer rejected it:
detaching inside the cell would break BPTT; "for use cases where you need to reuse the same
graph twice you can actually specify it in the backward method (retain_graph = True)".
This program applies that advice in a streaming keyword-spotting loop: a LIF cell with a
functional (voltage) state consumes an audio feature stream chunk by chunk, the state is
carried from chunk to chunk, and each chunk's loss is backpropagated with
`retain_graph=True` followed by an optimizer step. The asserts count the autograd nodes
reachable from each chunk's loss: the graph grows with every chunk, while detaching the
carried state at the chunk boundary (truncated BPTT) keeps it constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class LIFCell(nn.Module):
    """Leaky integrate-and-fire cell with an explicit (functional) state."""
    def __init__(self, n_in, n_hidden, dt=0.2, v_th=0.5):
        super().__init__()
        self.input_weights = nn.Linear(n_in, n_hidden, bias=False)
        self.dt, self.v_th = dt, v_th

    def forward(self, x, state=None):
        v = torch.zeros(x.shape[0], self.input_weights.out_features) if state is None else state
        v = v + self.dt * (self.input_weights(x) - v)
        z = torch.sigmoid(8.0 * (v - self.v_th))
        return z, v * (1.0 - z)


class StreamingKWS(nn.Module):
    def __init__(self, n_mel=20, n_hidden=32, n_words=4):
        super().__init__()
        self.cell = LIFCell(n_mel, n_hidden)
        self.readout = nn.Linear(n_hidden, n_words)

    def forward(self, chunk, state):                  # chunk: (frames, B, n_mel)
        rates = []
        for frame in chunk:
            z, state = self.cell(frame, state)
            rates.append(z)
        return self.readout(torch.stack(rates).mean(0)), state


def stream(n_chunks=6, frames=5, b=8):
    words = torch.randint(0, 4, (b,))
    proto = torch.randn(4, 20)
    for _ in range(n_chunks):
        yield proto[words] + 0.5 * torch.randn(frames, b, 20), words


def train_stream(model, truncate):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    state, sizes = None, []
    for chunk, words in stream():
        if truncate and state is not None:
            state = state.detach()
        logits, state = model(chunk, state)
        loss = F.cross_entropy(logits, words)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if truncate:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        opt.step()
    return sizes


if __name__ == "__main__":
    sizes = train_stream(StreamingKWS(), truncate=False)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    sizes_tbptt = train_stream(StreamingKWS(), truncate=True)
    assert len(set(sizes_tbptt[1:])) == 1, sizes_tbptt
    print("OK: carried LIF state + retain_graph grows the graph", sizes, "vs", sizes_tbptt)
