"""
expect: none
dynamic: dismiss
source: https://github.com/alexandrosstergiou/progressive-action-prediction/blob/27074d96fbbab60930ac69e1a609ddf8b2ecd5dc/network/movinets/models.py

The progressive action-prediction code ships the causal MoViNet blocks used to classify a video
while it streams in. Causal convolutions keep the last frames of the previous chunk in a stream
buffer saved with x[:, :, -pad:].clone().detach(), and the cumulative temporal average pool adds
the running sum of earlier chunks into its cumsum with "cumulative_sum += self.activation", keeps
a clone of the last sum and detaches it in place from a forward hook (activation.detach_()). It
reads like a model that cuts its own gradient and edits a recorded tensor in place, but it is the
intended streaming design: the buffers carry values across chunks while gradients are truncated
at chunk borders (like truncated BPTT), the in-place add hits a cumsum output that cumsum's
backward never needs, and detach_ only touches the copy kept for the next chunk.
The asserts show streaming the clip chunk by chunk gives the same logits as one full pass, that
the autograd graph of the loss has the same size whether the clip has 2 or 6 chunks, that the
conv weights receive gradient, and that training on streamed clips reaches high accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CausalModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.activation = None

    def reset_activation(self):
        self.activation = None


class TemporalCGAvgPool3D(CausalModule):
    def __init__(self):
        super().__init__()
        self.n_cumulated_values = 0
        self.register_forward_hook(self._detach_activation)

    def forward(self, x):
        cumulative_sum = torch.cumsum(x, dim=2)
        if self.activation is None:
            self.activation = cumulative_sum[:, :, -1:].clone()
        else:
            cumulative_sum += self.activation
            self.activation = cumulative_sum[:, :, -1:].clone()
        divisor = torch.arange(1, x.shape[2] + 1, dtype=x.dtype)[None, None, :, None, None].expand(x.shape)
        out = cumulative_sum / (self.n_cumulated_values + divisor)
        self.n_cumulated_values += x.shape[2]
        return out

    @staticmethod
    def _detach_activation(module, inputs, output):
        module.activation.detach_()

    def reset_activation(self):
        super().reset_activation()
        self.n_cumulated_values = 0


class CausalConv3d(CausalModule):
    def __init__(self, cin, cout, kt=3):
        super().__init__()
        self.dim_pad = kt - 1
        self.conv = nn.Conv3d(cin, cout, (kt, 3, 3), padding=(0, 1, 1))

    def forward(self, x):
        if self.activation is None:
            self.activation = torch.zeros(*x.shape[:2], self.dim_pad, *x.shape[3:])
        x = torch.cat((self.activation, x), 2)
        self.activation = x[:, :, -self.dim_pad:, ...].clone().detach()
        return self.conv(x)


class StreamNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = CausalConv3d(1, 8)
        self.pool = TemporalCGAvgPool3D()
        self.fc = nn.Linear(8, 2)

    def reset(self):
        for m in self.modules():
            if isinstance(m, CausalModule):
                m.reset_activation()

    def forward(self, chunk):
        h = self.pool(F.relu(self.conv(chunk)))          # (B, 8, t, H, W), running average over time
        return self.fc(h[:, :, -1].mean(dim=(2, 3)))


def make_clips(n, frames, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 2, (n,), generator=g)
    clips = 0.5 * torch.randn(n, 1, frames, 8, 8, generator=g)
    clips[labels == 1, :, :, 2:6, 2:6] += 1.0      # class 1: a bright square that persists
    return clips, labels


def stream(net, clips, chunk=2):
    net.reset()
    out = None
    for start in range(0, clips.shape[2], chunk):
        out = net(clips[:, :, start:start + chunk])
    return out


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(nxt for nxt, _ in f.next_functions)
    return len(seen)


net = StreamNet()
clips, labels = make_clips(64, 8, 1)
with torch.no_grad():
    net.reset()
    full = net(clips)
    streamed = stream(net, clips)
assert torch.allclose(full, streamed, atol=1e-5)

short, _ = make_clips(8, 4, 3)
long_, _ = make_clips(8, 12, 3)
sizes = [graph_size(F.cross_entropy(stream(net, c), labels[:8]).grad_fn) for c in (short, long_)]
assert sizes[0] == sizes[1], sizes

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(60):
    opt.zero_grad()
    loss = F.cross_entropy(stream(net, clips), labels)
    loss.backward()
    assert net.conv.conv.weight.grad.abs().sum() > 0
    opt.step()

test_clips, test_labels = make_clips(64, 8, 2)
with torch.no_grad():
    acc = (stream(net, test_clips).argmax(1) == test_labels).float().mean().item()
assert acc >= 0.9, acc
print("ok: detached stream buffers keep values, truncate gradients; streamed accuracy", round(acc, 2))
