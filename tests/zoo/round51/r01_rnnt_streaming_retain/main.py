"""
expect: GL004 main.py:39
dynamic: confirm
source: https://github.com/1ytic/warp-rnnt/issues/12

A streaming RNN-T recogniser is trained on long utterances cut into chunks. The encoder keeps its GRU state on
the module between chunks (transducer.py), so every chunk's loss is linked to all earlier chunks of the
utterance. The first backward then frees the shared part of the graph and the second chunk fails with "Trying
to backward through the graph a second time", which the reporter of the warp-rnnt issue met with only the RNN-T
loss in the model; the fix tried was backward(retain_graph=True). With it every chunk's backward walks back
through all previous chunks: the graph reachable from the loss grows with each chunk and old chunks get their
gradients added again and again. The asserts count the autograd nodes reachable from each chunk's loss: they grow
steadily in the retain_graph version and stay constant when the state is detached at chunk boundaries
(truncated BPTT), which is what the author meant.
"""
import torch

from transducer import Transducer, count_graph_nodes, rnnt_loss

torch.manual_seed(0)
torch.set_num_threads(1)

N_CHUNKS, CHUNK_T, N_FEATS = 6, 4, 8


def make_utterance():
    chunks = [torch.randn(1, CHUNK_T, N_FEATS) for _ in range(N_CHUNKS)]
    labels = [torch.randint(1, 6, (2,)) for _ in range(N_CHUNKS)]
    return chunks, labels


def train_utterance_retained(model, opt, chunks, labels):
    model.encoder.reset()
    opt.zero_grad()
    sizes = []
    for chunk, lab in zip(chunks, labels):
        loss = rnnt_loss(model(chunk, lab), lab)
        sizes.append(count_graph_nodes(loss))
        loss.backward(retain_graph=True)
    opt.step()
    return sizes


def train_utterance_truncated(model, opt, chunks, labels):
    model.encoder.reset()
    opt.zero_grad()
    sizes = []
    for chunk, lab in zip(chunks, labels):
        model.encoder.detach_state()
        loss = rnnt_loss(model(chunk, lab), lab)
        sizes.append(count_graph_nodes(loss))
        loss.backward()
    opt.step()
    return sizes


chunks, labels = make_utterance()

model = Transducer()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
grown = train_utterance_retained(model, opt, chunks, labels)
print("graph nodes per chunk (retain_graph):", grown)
assert all(b > a for a, b in zip(grown, grown[1:])), grown
assert grown[-1] > 2 * grown[0]

model2 = Transducer()
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05)
flat = train_utterance_truncated(model2, opt2, chunks, labels)
print("graph nodes per chunk (state detached):", flat)
assert max(flat) == min(flat), flat
assert grown[0] == flat[0]
print("ok")
