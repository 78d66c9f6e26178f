"""
expect: none
dynamic: dismiss
source: https://github.com/yxgeee/SpCL/issues/15

SpCL (unsupervised person re-ID) keeps a hybrid memory of instance features
inside a custom autograd Function: forward scores the batch against the memory,
and backward first computes the input gradient from the memory and only then
overwrites the touched memory rows in place with a momentum update. A user
printing the memory in forward saw it "never change"; the author explained it
is updated during loss.backward(). The in-place write looks like editing a
tensor the graph saved, but it happens after its last use. The asserts show the
input gradient equals that of a plain constant-memory matmul, the memory rows
move only after backward, and the encoder trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function

torch.manual_seed(0)
torch.set_num_threads(1)


class HybridMemoryFn(Function):
    @staticmethod
    def forward(ctx, inputs, indexes, features, momentum):
        ctx.features = features
        ctx.momentum = momentum
        ctx.save_for_backward(inputs, indexes)
        return inputs.mm(features.t())

    @staticmethod
    def backward(ctx, grad_outputs):
        inputs, indexes = ctx.saved_tensors
        grad_inputs = grad_outputs.mm(ctx.features)          # uses the old memory
        for x, y in zip(inputs, indexes.tolist()):           # then writes the new one
            ctx.features[y] = ctx.momentum * ctx.features[y] + (1.0 - ctx.momentum) * x
            ctx.features[y] /= ctx.features[y].norm()
        return grad_inputs, None, None, None


class HybridMemory(nn.Module):
    def __init__(self, num_features, num_samples, temp=0.1, momentum=0.5):
        super().__init__()
        self.temp, self.momentum = temp, momentum
        self.register_buffer("features", F.normalize(torch.randn(num_samples, num_features), dim=1))

    def forward(self, inputs, indexes):
        inputs = F.normalize(inputs, dim=1)
        logits = HybridMemoryFn.apply(inputs, indexes, self.features, self.momentum)
        return F.cross_entropy(logits / self.temp, indexes)


if __name__ == "__main__":
    N, D = 64, 16
    images = torch.randn(N, 32)
    encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, D))
    memory = HybridMemory(D, N)

    # gradient check against a constant-memory reference
    idx = torch.arange(8)
    x = encoder(images[idx])
    mem_before = memory.features.clone()
    loss = memory(x, idx)
    assert torch.equal(memory.features, mem_before)            # forward does not touch it
    g_mem = torch.autograd.grad(loss, x, retain_graph=False)[0]
    assert not torch.equal(memory.features[idx], mem_before[idx])   # updated in backward
    assert torch.equal(memory.features[8:], mem_before[8:])
    x2 = encoder(images[idx])
    ref = F.cross_entropy(F.normalize(x2, dim=1) @ mem_before.t() / memory.temp, idx)
    g_ref = torch.autograd.grad(ref, x2)[0]
    assert torch.allclose(g_mem, g_ref, atol=1e-6)

    # instance-discrimination training with the memory
    opt = torch.optim.SGD(encoder.parameters(), lr=0.5)
    hist = []
    for step in range(60):
        idx = torch.randperm(N)[:16]
        loss = memory(encoder(images[idx] + 0.05 * torch.randn(16, 32)), idx)
        opt.zero_grad(); loss.backward(); opt.step()
        hist.append(loss.item())
    print("loss first/last 10:", sum(hist[:10]) / 10, sum(hist[-10:]) / 10)
    assert sum(hist[-10:]) < 0.7 * sum(hist[:10])
    print("OK")
