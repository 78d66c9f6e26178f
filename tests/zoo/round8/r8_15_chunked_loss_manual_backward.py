"""
expect: none
dynamic: dismiss
source: https://github.com/harvardnlp/annotated-transformer/issues/23

The Annotated Transformer's MultiGPULossCompute, without the GPUs: to save
memory the decoder output is cut into column chunks; each chunk is re-wrapped
as a fresh leaf, `Variable(o[:, i:i+c].data, requires_grad=...)`, run through
the generator and the loss, and backpropagated only down to that leaf. The
leaf gradients are then concatenated and pushed into the real graph with
`out.backward(gradient=out_grad)`. The `.data` cut, the requires_grad switch
on a history-less tensor and the `.item()` are all deliberate: the chain rule
is completed by hand, so the encoder receives exactly the gradient of the full
loss. Asserted: gradients equal those of a direct, un-chunked computation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
VOCAB, DIM = 11, 6


class ChunkedLossCompute:
    def __init__(self, generator, opt=None, chunk_size=2):
        self.generator, self.opt, self.chunk_size = generator, opt, chunk_size

    def __call__(self, out, targets, norm):
        total, grads = 0.0, []
        for i in range(0, out.size(1), self.chunk_size):
            out_column = Variable(out[:, i:i + self.chunk_size].data, requires_grad=self.opt is not None)
            gen = self.generator(out_column)
            y = targets[:, i:i + self.chunk_size]
            loss = F.cross_entropy(gen.reshape(-1, VOCAB), y.reshape(-1), reduction="sum") / norm
            total += loss.item()
            if self.opt is not None:
                loss.backward()
                grads.append(out_column.grad)
        if self.opt is not None:
            out.backward(gradient=torch.cat(grads, dim=1))
        return total * norm


decoder = nn.Sequential(nn.Linear(4, DIM), nn.Tanh())
generator = nn.Linear(DIM, VOCAB)
params = list(decoder.parameters()) + list(generator.parameters())
opt = torch.optim.SGD(params, lr=0.1)
src = torch.randn(3, 6, 4)
targets = torch.randint(0, VOCAB, (3, 6))
norm = float(targets.numel())

opt.zero_grad()
chunked_total = ChunkedLossCompute(generator, opt)(decoder(src), targets, norm)
chunked_grads = [p.grad.clone() for p in params]

opt.zero_grad()
direct = F.cross_entropy(generator(decoder(src)).reshape(-1, VOCAB), targets.reshape(-1), reduction="sum") / norm
direct.backward()
for a, p in zip(chunked_grads, params):
    assert torch.allclose(a, p.grad, atol=1e-6), "chunked gradient differs"
assert abs(chunked_total - direct.item() * norm) < 1e-3
print("OK: chunked loss with manual backward reproduces the full gradient")
