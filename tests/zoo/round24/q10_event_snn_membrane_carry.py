"""
expect: GL004 74
dynamic: confirm
source: https://github.com/LinZhu111/EVSNN/issues/6

EVSNN reconstructs frames from event-camera voxels with a spiking network that keeps membrane
potentials between voxel chunks; the issue asks how these states are handled, and the authors
answer that all of them are detached between chunks in training. This file keeps the membrane
attached instead and uses backward(retain_graph=True) so the per-chunk update runs: a leaky
integrate-and-fire layer with a learned leak feeds a linear readout, stepped after every chunk.
The asserts show the graph behind each chunk's loss keeps growing and events from the first
chunk still receive gradient thirty chunks later, while detaching keeps the graph bounded.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 8
IN, HID = 2 * H * W, 64


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x > 0).float()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g / (1.0 + 5.0 * x.abs()) ** 2


class LIFReconstructor(nn.Module):
    def __init__(self, threshold=1.0):
        super().__init__()
        self.fc_in = nn.Linear(IN, HID)
        self.raw_beta = nn.Parameter(torch.tensor(2.0))
        self.readout = nn.Linear(HID, H * W)
        self.threshold = threshold

    def forward(self, voxel, mem, spk):
        beta = torch.sigmoid(self.raw_beta)
        mem = beta * mem + self.fc_in(voxel) - spk * self.threshold
        spk = SpikeFn.apply(mem - self.threshold)
        return torch.sigmoid(self.readout(spk + mem)), mem, spk


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class ChunkTrainer:
    def __init__(self, model, detach_states):
        self.model, self.detach_states = model, detach_states
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.mem, self.spk = torch.zeros(1, HID), torch.zeros(1, HID)

    def step(self, voxel, frame):
        if self.detach_states:
            self.mem, self.spk = self.mem.detach(), self.spk.detach()
        pred, self.mem, self.spk = self.model(voxel, self.mem, self.spk)
        loss = F.mse_loss(pred, frame)
        self.opt.zero_grad()
        loss.backward(retain_graph=True)
        first_chunk_pixel_grad = self.model.fc_in.weight.grad[:, 0].abs().sum().item()
        self.opt.step()
        return graph_size(loss), first_chunk_pixel_grad


def event_stream(n):
    g = torch.Generator().manual_seed(3)
    for t in range(n):
        voxel = (torch.rand(1, IN, generator=g) < 0.2).float()
        voxel[:, 0] = 1.0 if t == 0 else 0.0  # this pixel only fires in the first chunk
        yield voxel, torch.rand(1, H * W, generator=g)


net = LIFReconstructor()
init = {k: v.clone() for k, v in net.state_dict().items()}
trainer = ChunkTrainer(net, detach_states=False)
sizes, old = zip(*(trainer.step(*c) for c in event_stream(30)))
assert all(a < b for a, b in zip(sizes, sizes[1:])) and sizes[-1] > 8 * sizes[0]
assert old[-1] > 0.0

net_f = LIFReconstructor()
net_f.load_state_dict(init)
trainer_f = ChunkTrainer(net_f, detach_states=True)
sizes_f, old_f = zip(*(trainer_f.step(*c) for c in event_stream(30)))
assert len(set(sizes_f[1:])) == 1
assert old_f[-1] == 0.0
print("q10 ok: attached membrane + retain_graph drags every past voxel chunk into each backward")
