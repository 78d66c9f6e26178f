"""
expect: none
dynamic: dismiss
source: https://github.com/seoungwugoh/STM/issues/14

The question: when training the space-time memory network on 3-frame clips, where should
loss.backward go; one option is to backpropagate each frame's loss with `retain_graph=True`
for the first frames and without it for the last, the other (the author's) to sum the losses
and backpropagate once. This program rebuilds the per-frame option: within a clip, frame t reads
a memory of keys/values written from frames < t, so the earlier graph is needed again and
retain_graph is required; every clip starts with an empty memory, so nothing is carried across
iterations. The asserts show the gradients equal those of the summed loss, the graph size per
clip is the same every iteration, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class SpaceTimeMemory(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.key_enc = nn.Linear(4, d)          # frame (+ mask) -> key
        self.val_enc = nn.Linear(5, d)          # frame + mask -> value
        self.decoder = nn.Linear(2 * d, 1)

    def memorize(self, frame, mask):
        return self.key_enc(frame), self.val_enc(torch.cat([frame, mask], -1))

    def segment(self, frame, keys, values):
        q = self.key_enc(frame)
        attn = torch.softmax(q @ torch.cat(keys, 1).transpose(1, 2) / 4.0, dim=-1)
        read = attn @ torch.cat(values, 1)
        return self.decoder(torch.cat([q, read], -1))


def clip_step(model, frames, masks, per_frame):
    keys, values = [], []
    k, v = model.memorize(frames[:, 0], masks[:, 0])
    keys.append(k)
    values.append(v)
    total, sizes = 0, []
    n = frames.shape[1]
    for t in range(1, n):
        logit = model.segment(frames[:, t], keys, values)
        loss = F.binary_cross_entropy_with_logits(logit, masks[:, t])
        sizes.append(graph_size(loss))
        if per_frame:
            loss.backward(retain_graph=(t < n - 1))
        total = total + loss
        k, v = model.memorize(frames[:, t], torch.sigmoid(logit))
        keys.append(k)
        values.append(v)
    if not per_frame:
        total.backward()
    return total.item(), sizes


torch.manual_seed(0)
frames = torch.randn(2, 3, 10, 4)
masks = (frames[..., :1] > 0).float()

model = SpaceTimeMemory()
clip_step(model, frames, masks, per_frame=True)
per_frame_grads = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
clip_step(model, frames, masks, per_frame=False)
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(per_frame_grads, model.parameters()))

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses, all_sizes = [], []
for it in range(15):
    opt.zero_grad()
    total, sizes = clip_step(model, frames, masks, per_frame=True)
    opt.step()
    losses.append(total)
    all_sizes.append(tuple(sizes))
assert len(set(all_sizes)) == 1, all_sizes[:3]
assert losses[-1] < losses[0], losses
print("ok: per-frame retain_graph within a clip; graph size", all_sizes[0], "every iteration")
