"""
expect: GL004 main.py:84
dynamic: confirm
source: https://github.com/ndrplz/ConvLSTM_pytorch/issues/21

In the ConvLSTM_pytorch issue a user plugs the ConvLSTM into a video model and
keeps its state on the module between calls (out, self.hidden = self.convlstm(out,
self.hidden)); the library raised NotImplementedError for a non-None hidden state,
and the suggested change was simply to pass last_state_list back in, with the
remark that nothing would need to be detached. Fed with consecutive chunks of a
long video, the second loss.backward() then fails with "Trying to backward through
the graph a second time", because the carried (h, c) still hangs on the previous
chunk's graph, and the usual reaction is loss.backward(retain_graph=True). Here
the model is a tiny stateful next-frame predictor (convlstm.py) trained on moving
blobs, chunk by chunk, with gradients accumulated over a video and one optimizer
step per video. With retain_graph=True it runs, but every backward walks the whole
history again: the asserts show the plain backward raising, the autograd graph
reachable from each chunk's loss growing chunk after chunk under the retain_graph
"fix", and, when the state is detached at chunk boundaries (truncated BPTT), a
constant graph size and a falling loss.
"""
import torch
import torch.nn.functional as F

from convlstm import NextFramePredictor

torch.manual_seed(0)
torch.set_num_threads(1)


def moving_blob_video(n_frames=24, size=10):
    vid = torch.zeros(n_frames, 1, size, size)
    r, c = torch.randint(2, size - 2, (2,)).tolist()
    dr, dc = 1, 1
    for k in range(n_frames):
        vid[k, 0, max(r - 1, 0):r + 1, max(c - 1, 0):c + 1] = 1.0
        if not 1 <= r + dr <= size - 2:
            dr = -dr
        if not 1 <= c + dc <= size - 2:
            dc = -dc
        r, c = r + dr, c + dc
    return vid


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nf for nf, _ in fn.next_functions)
    return len(seen)


def chunks(video, clip_len=3):
    for s in range(0, video.shape[0] - clip_len, clip_len):
        yield video[s:s + clip_len].unsqueeze(0), video[s + clip_len].unsqueeze(0)


videos = [moving_blob_video() for _ in range(6)]

# what the user hit first: plain backward on a stateful model
model = NextFramePredictor()
model.reset_state()
try:
    for clip, nxt in chunks(videos[0]):
        F.mse_loss(model(clip), nxt).backward()
    raise AssertionError("expected the second-backward error")
except RuntimeError as e:
    assert "backward through the graph a second time" in str(e), str(e)


def train_stateful(model, epochs=1):
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    sizes = []
    for ep in range(epochs):
        for vid in videos:
            model.reset_state()
            opt.zero_grad()
            for clip, nxt in chunks(vid):
                loss = F.mse_loss(model(clip), nxt)
                sizes.append(graph_size(loss))
                loss.backward(retain_graph=True)
            opt.step()
    return sizes


def train_truncated(model, epochs=4):
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    sizes, epoch_losses = [], []
    for ep in range(epochs):
        total = 0.0
        for vid in videos:
            model.reset_state()
            opt.zero_grad()
            for clip, nxt in chunks(vid):
                model.detach_state()
                loss = F.mse_loss(model(clip), nxt)
                sizes.append(graph_size(loss))
                loss.backward()
                total += loss.item()
            opt.step()
        epoch_losses.append(total)
    return sizes, epoch_losses


n_chunks = len(list(chunks(videos[0])))

torch.manual_seed(1)
sizes_bug = train_stateful(NextFramePredictor())
first_video = sizes_bug[:n_chunks]
assert all(b > a for a, b in zip(first_video, first_video[1:])), first_video
assert first_video[-1] > 4 * first_video[0], first_video

torch.manual_seed(1)
sizes_fix, losses_fix = train_truncated(NextFramePredictor())
assert len(set(sizes_fix)) == 1, set(sizes_fix)
assert losses_fix[-1] < losses_fix[0], losses_fix

print("r14 ok: graph per chunk grows %d -> %d with retain_graph; constant %d with detached state"
      % (first_video[0], first_video[-1], sizes_fix[0]))
