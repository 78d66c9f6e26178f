"""
expect: GL002 49
dynamic: confirm
source: https://github.com/Gliese129/YourVits/blob/ec34479191d519e4f7005d5b96b6be0e2f4e42bb/bert/utils/pca.py

A BERT text encoder (for a VITS voice project) carries a context memory from
one segment to the next: the memory is computed by attention over the previous
segment's hidden states and, before it is fed back, a PCALayer shrinks it from
seq_len to ctx_len positions. PCALayer.forward detaches the memory, runs
sklearn's PCA.fit_transform on a NumPy copy and rebuilds the result with
torch.tensor(...). The author also wrote a backward() method on the nn.Module
that maps gradients back with inverse_transform, but autograd never calls a
Module's backward: the rebuilt tensor is a new leaf, so the loss of the second
segment sends no gradient into the memory or into anything that produced it
in the first segment. Training runs without error. The asserts (PCA done with
NumPy's SVD here, sklearn is not needed) show that after backward the first
segment's memory has no .grad and the custom backward was never entered, so
the context pathway is untrained; the fixed layer does the same projection
with torch.linalg.svd and the gradient reaches the memory.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, SEQ_LEN, CTX_LEN, D = 30, 8, 3, 16


def numpy_pca_fit_transform(x, k):
    xc = x - x.mean(axis=0, keepdims=True)
    _, _, vt = np.linalg.svd(xc, full_matrices=False)
    return xc @ vt[:k].T


class PCALayer(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.input_size = input_size
        self.output_size = output_size
        self.backward_calls = 0

    def forward(self, x):
        # (batch, seq_len, h) -> (batch * h, seq_len) -> PCA -> (batch, context_len, h)
        b, s, h = x.shape
        dtype, device = x.dtype, x.device
        x = x.transpose(1, 2).reshape(b * h, -1)
        x = numpy_pca_fit_transform(x.detach().cpu().numpy(), self.output_size)
        x = torch.tensor(x, dtype=dtype, device=device)
        return x.reshape(b, h, -1).transpose(1, 2)

    def backward(self, grad_output):
        # meant to map gradients back through the projection; autograd never calls it
        self.backward_calls += 1
        return grad_output


class TorchPCALayer(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, x):
        b, s, h = x.shape
        x = x.transpose(1, 2).reshape(b * h, -1)
        xc = x - x.mean(dim=0, keepdim=True)
        _, _, vh = torch.linalg.svd(xc, full_matrices=False)
        return (xc @ vh[:self.output_size].T).reshape(b, h, -1).transpose(1, 2)


class ContextBert(nn.Module):
    def __init__(self, pca_cls):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(torch.randn(SEQ_LEN, D) * 0.1)
        self.pca = pca_cls(SEQ_LEN, CTX_LEN)
        layer = nn.TransformerEncoderLayer(D, 2, 32, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 1)
        self.linear = nn.Linear(D, VOCAB)

    def forward(self, x, context=None):
        if context is None:
            ctx = torch.zeros(x.size(0), CTX_LEN, D)
        else:
            ctx = self.pca(context)
        h = self.blocks(torch.cat([ctx, self.tok(x) + self.pos], dim=1))[:, CTX_LEN:]
        att = torch.softmax(h @ h.transpose(1, 2), dim=1)
        new_context = att @ h                       # memory for the next segment
        return h, new_context, self.linear(h)


def two_segments(model):
    seg1 = torch.randint(0, VOCAB, (4, SEQ_LEN))
    seg2 = torch.randint(0, VOCAB, (4, SEQ_LEN))
    _, memory, _ = model(seg1)
    memory.retain_grad()
    _, _, logits = model(seg2, context=memory)
    loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), seg2.reshape(-1))
    loss.backward()
    return memory


model = ContextBert(PCALayer)
memory = two_segments(model)
assert memory.grad is None                     # no gradient crossed the PCA round trip
assert model.pca.backward_calls == 0           # the hand-written backward is dead code
assert model.linear.weight.grad is not None    # the rest of segment 2 still trains

torch.manual_seed(0)
fixed = ContextBert(TorchPCALayer)
memory = two_segments(fixed)
assert memory.grad is not None and memory.grad.abs().sum() > 0
print("r06 ok: NumPy PCA + torch.tensor cuts the memory path; torch SVD keeps it")
