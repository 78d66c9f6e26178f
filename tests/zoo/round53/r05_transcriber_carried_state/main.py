"""
expect: GL004 main.py:49
dynamic: confirm
source: https://github.com/lfogarty98/dl4ad-project-6-hpc/commit/14fe10f048442a0e4adb9863dd582645ce473760

Audio-to-MIDI transcription with a stateful LSTM: the frames of one recording are fed in order, in
chunks, and the model keeps its hidden and cell state between calls (model.py) so that notes can
be carried across chunk borders. Because the carried state still has its history, the second
chunk's backward runs into the first chunk's graph again; the project's training loop carried the
comment "Retain graph for the next iteration" before the authors added model.detach_hidden() after
each step. With backward(retain_graph=True) and the state not detached, every chunk's graph stays
alive and each backward walks all earlier chunks of the recording again (here the optimizer steps
once per recording, as in gradient accumulation; stepping per chunk would even raise the in-place
error). The asserts count the autograd nodes reachable from each chunk's loss - they grow linearly
with the chunk index - and count how many backward passes reach the state that left the first
chunk (all later ones); with detach_hidden() the count is constant and no backward goes back.
"""
import torch
import torch.nn.functional as F

from model import Transcriber


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


def train_recording(model, opt, chunks, rolls, detach_between_chunks):
    model.reset_hidden()
    opt.zero_grad()
    sizes, reached_first_chunk = [], []
    for i, (frames, roll) in enumerate(zip(chunks, rolls)):
        logits = model(frames)
        if i == 0:  # the state leaving chunk 0: count how often a backward reaches it
            model.hidden.register_hook(lambda g: reached_first_chunk.append(1))
        loss = F.binary_cross_entropy_with_logits(logits, roll)
        sizes.append(graph_size(loss))
        if detach_between_chunks:
            loss.backward()
            model.detach_hidden()
        else:
            loss.backward(retain_graph=True)  # needed once the state has history
    opt.step()
    return sizes, len(reached_first_chunk)


torch.manual_seed(0)
torch.set_num_threads(1)
n_chunks, chunk_len = 8, 10
chunks = [torch.randn(chunk_len, 1, 24) for _ in range(n_chunks)]
rolls = [(torch.rand(chunk_len, 1, 16) > 0.8).float() for _ in range(n_chunks)]

model = Transcriber()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    grown, hits = train_recording(model, opt, chunks, rolls, detach_between_chunks=False)
steps = [b - a for a, b in zip(grown, grown[1:])]
assert len(set(steps)) == 1 and steps[0] > 0, grown  # linear growth, chunk after chunk
assert grown[-1] > 3 * grown[0], grown
assert hits == n_chunks - 1  # every later backward walked back into chunk 0

fixed = Transcriber()
fixed_opt = torch.optim.Adam(fixed.parameters(), lr=1e-3)
flat, fixed_hits = train_recording(fixed, fixed_opt, chunks, rolls, detach_between_chunks=True)
assert len(set(flat)) == 1 and fixed_hits == 0, (flat, fixed_hits)
print("graph nodes per chunk, carried state:", grown)
print("graph nodes per chunk, detached state:", flat)
