"""
expect: GL004 44
dynamic: confirm
source: kind A

A streaming voice-activity detector runs a GRU cell over audio frames, carrying the hidden
state from frame to frame and accumulating per-frame losses. The `carry_state` flag picks
retain_graph=True backward with the undetached state versus a plain backward plus detach.
The asserts show the autograd graph behind each frame's loss grows on the carry_state=True
call and stays a constant size on the carry_state=False call.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingVAD(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(16, 24)
        self.out = nn.Linear(24, 1)


def graph_size(root):
    seen, stack = set(), [root]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train_utterance(model, opt, frames, labels, carry_state):
    hidden = torch.zeros(frames.shape[1], 24)
    sizes = []
    opt.zero_grad()
    for t in range(frames.shape[0]):
        hidden = model.cell(frames[t], hidden)
        loss = F.binary_cross_entropy_with_logits(model.out(hidden).squeeze(-1), labels[t])
        sizes.append(graph_size(loss.grad_fn))
        if carry_state:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
            hidden = hidden.detach()
    opt.step()
    return sizes


def run(carry_state):
    torch.manual_seed(0)
    model = StreamingVAD()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    frames = torch.randn(6, 4, 16)
    labels = (torch.rand(6, 4) > 0.5).float()
    return train_utterance(model, opt, frames, labels, carry_state)


grown = run(carry_state=True)
assert all(b > a for a, b in zip(grown, grown[1:])), grown

flat = run(carry_state=False)
assert len(set(flat)) == 1, flat
assert grown[-1] > flat[-1]
print("a2 ok", grown, flat)
