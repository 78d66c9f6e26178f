"""
expect: GL004 94
dynamic: confirm
source: https://github.com/synsense/sinabs/issues/5

In sinabs, spiking layers keep their membrane potential in registered buffers
that persist across forward calls; between samples the user calls
reset_states(), which did `buffer.zero_()` in place. The buffer at that point is
the last v_mem of the previous batch, a non-leaf that still hangs on the
previous graph, and zero_() keeps that link (ZeroBackward -> old graph). The
next batch's graph therefore chains into the freed previous one and the second
loss.backward() fails with "Trying to backward through the graph a second time";
the tempting fix is backward(retain_graph=True), which makes the loop run while
every batch's graph stays alive and linked to all earlier ones. The maintainers
fixed reset_states to `buffer.zero_().detach_()` (ffae161). The program trains a
stateful LIF layer on a toy event stream three ways: plain backward with the
in-place reset raises (caught); with retain_graph=True it runs, but the number
of autograd nodes reachable from each new loss grows every step; with the
detaching reset plain backward works and the graph size is constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, N_IN, N_OUT = 8, 6, 10, 4


class Spike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, g):
        (v,) = ctx.saved_tensors
        return g / (1 + 5 * v.abs()) ** 2


class StatefulLIF(nn.Module):
    def __init__(self, detach_on_reset):
        super().__init__()
        self.detach_on_reset = detach_on_reset
        self.register_buffer("v_mem", torch.zeros(0))

    def reset_states(self):
        if self.v_mem.numel():
            for buffer in self.buffers():
                if self.detach_on_reset:
                    buffer.zero_().detach_()
                else:
                    buffer.zero_()

    def forward(self, x):  # x: (B, T, N)
        if self.v_mem.shape != x[:, 0].shape:
            self.v_mem = torch.zeros_like(x[:, 0])
        out = []
        for t in range(x.shape[1]):
            v = 0.8 * self.v_mem + x[:, t]
            s = Spike.apply(v - 1.0)
            self.v_mem = v - s
            out.append(s)
        return torch.stack(out, 1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def run(detach_on_reset, retain, steps=6):
    torch.manual_seed(0)
    fc, lif = nn.Linear(N_IN, N_OUT), StatefulLIF(detach_on_reset)
    opt = torch.optim.SGD(fc.parameters(), lr=0.1)
    sizes = []
    for _ in range(steps):
        x = (torch.rand(B, T, N_IN) < 0.3).float()
        y = torch.randint(0, N_OUT, (B,))
        lif.reset_states()
        rate = lif(fc(x)).mean(1)
        loss = F.cross_entropy(rate * 5, y)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        opt.step()
    return sizes


# in-place reset + plain backward: the error users hit
failed = False
try:
    run(detach_on_reset=False, retain=False)
except RuntimeError as err:
    failed = "backward through the graph a second time" in str(err)
assert failed

# the workaround: it runs, but every step's graph contains all previous ones
grow = run(detach_on_reset=False, retain=True)
assert all(b > a for a, b in zip(grow, grow[1:])), grow

# the fix: detach on reset, no retain_graph needed, constant graph
flat = run(detach_on_reset=True, retain=False)
assert len(set(flat)) == 1 and grow[-1] > 3 * flat[-1]
print("graph nodes per step with retain_graph:", grow, "with detaching reset:", flat)
