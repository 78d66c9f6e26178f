"""
expect: GL004 clip_trainer.py:41
dynamic: confirm
source: https://github.com/vikrant7/mobile-vod-bottleneck-lstm/issues/31

The issue asks how to live with loss.backward(retain_graph=True) in the repo's
video trainer, which runs one backward per frame while the LSTM hidden state is
carried from frame to frame and only detached after the whole sequence. This
program rebuilds that loop (the trainer sits in clip_trainer.py): every frame's
backward walks back through all earlier frames of the clip, because the carried
state keeps those graphs alive. The asserts show the autograd graph reachable
from each frame's loss grows with the frame index inside a clip, while a
per-frame detach keeps it constant.
"""
import torch

from clip_trainer import FrameDetector, train_clip, graph_size

torch.manual_seed(0)
net = FrameDetector()
opt = torch.optim.SGD(net.parameters(), lr=0.01)

clip_len = 10
sizes = []
for clip in range(2):
    frames = [torch.randn(3, 12) for _ in range(clip_len)]
    boxes = [torch.randn(3, 4) for _ in range(clip_len)]
    train_clip(net, opt, frames, boxes, sizes)

first_clip = sizes[:clip_len]
assert all(b > a for a, b in zip(first_clip, first_clip[1:])), first_clip
assert first_clip[-1] > 4 * first_clip[0], first_clip

# Reference: detaching the carried state every frame keeps each graph the same size.
ref = FrameDetector()
ref_sizes = []
for _ in range(clip_len):
    out = ref(torch.randn(3, 12))
    loss = torch.nn.functional.smooth_l1_loss(out, torch.randn(3, 4))
    loss.backward()
    ref_sizes.append(graph_size(loss))
    ref.detach_state()
assert len(set(ref_sizes[1:])) == 1, ref_sizes
print("graph size per frame:", first_clip, "detached:", ref_sizes)
