"""
expect: GL001 network.py:37, GL003 network.py:75
dynamic: confirm
source: https://github.com/hkchengrex/STCN/issues/141

Video object segmentation (STCN-style space-time memory). The key-to-key affinity is the
largest tensor of a training step, and the report asks whether
`MemoryReader.get_affinity()` must compute gradients at all. In this code the memory
saving is done by routing the affinity through a helper decorated with
`@torch.no_grad()`; to keep the readout "trainable" the caller then flips
`affinity.requires_grad_()`. That only turns the affinity into a new leaf: the path from
the segmentation loss to the key projection (whose only use is the affinity) is gone,
so the key encoder's projection never learns what to match, while value encoder and
decoder still train. The asserts show that after backward the key projection has no
gradient on the default path (the loss only reaches the detached affinity leaf), and that
computing the affinity with autograd gives the key projection a gradient and lowers the
query-mask loss further than the no-grad variant on moving-blob videos.
"""
import torch
import torch.nn.functional as F

from network import STCN

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 16


def blob(cx, cy, r=3.0):
    ys, xs = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
    return (((xs - cx) ** 2 + (ys - cy) ** 2) < r * r).float()


def make_clip(B=8):
    ref_f, ref_m, qry_f, qry_m = [], [], [], []
    for _ in range(B):
        cx, cy = torch.randint(4, 12, (2,)).float()
        dx, dy = torch.randint(-2, 3, (2,)).float()
        color = torch.rand(3, 1, 1)
        bg = 0.3 * torch.rand(3, H, W)
        m0, m1 = blob(cx, cy), blob(cx + dx, cy + dy)
        ref_f.append(bg * (1 - m0) + color * m0)
        qry_f.append(bg * (1 - m1) + color * m1)
        ref_m.append(m0[None])
        qry_m.append(m1[None])
    return torch.stack(ref_f), torch.stack(ref_m), torch.stack(qry_f), torch.stack(qry_m)


def train(save_memory, steps=120):
    torch.manual_seed(1)
    net = STCN(save_memory=save_memory)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    losses = []
    torch.manual_seed(2)
    for _ in range(steps):
        rf, rm, qf, qm = make_clip()
        logits = net.segment(rf, rm, qf)
        loss = F.binary_cross_entropy_with_logits(logits, qm)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return net, losses


# buggy default path: affinity under no_grad, then requires_grad_() on the result
net = STCN()
rf, rm, qf, qm = make_clip()
loss = F.binary_cross_entropy_with_logits(net.segment(rf, rm, qf), qm)
loss.backward()
assert net.key_encoder.key_proj.weight.grad is None
assert net.value_encoder.conv[0].weight.grad is not None
print("no-grad affinity: key projection grad is None")

net_bug, l_bug = train(save_memory=True)
net_fix, l_fix = train(save_memory=False)
assert net_bug.key_encoder.key_proj.weight.grad is None
g = net_fix.key_encoder.key_proj.weight.grad
assert g is not None and g.abs().sum() > 0
end_bug, end_fix = sum(l_bug[-20:]) / 20, sum(l_fix[-20:]) / 20
assert end_fix < end_bug, (end_bug, end_fix)
print("final query-mask loss: no-grad affinity %.4f vs autograd affinity %.4f" % (end_bug, end_fix))
