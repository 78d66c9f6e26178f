"""expect: GL005 intergcn.py:41
dynamic: confirm
source: https://github.com/BinLiang-NLP/InterGCN-ABSA/issues/4

An aspect-based sentiment model runs two graph convolutions over the syntax graph and two more over the
aspect-relation graph, then mixes the two streams with `x += 0.2 * x_d` (in intergcn.py). The tensor x is
the output of F.relu, which saves its own result for backward, and it was also multiplied by the position
weights that feed the relation stream, so the in-place add bumps the version of a saved tensor. The first
loss.backward() raises "modified by an inplace operation", as reported in the issue. The asserts catch that
RuntimeError for the model as written, then train a subclass that mixes the streams out of place and check
that the relation-graph layers gc3/gc4 get non-zero gradients and the loss goes down.
"""
import torch
import torch.nn.functional as F

from intergcn import InterGCN

torch.manual_seed(0)
torch.set_num_threads(1)


class OutOfPlaceInterGCN(InterGCN):
    def combine(self, x, x_d):
        return x + 0.2 * x_d


def make_batch(batch=6, seq_len=10, vocab=50):
    tokens = torch.randint(1, vocab, (batch, seq_len))
    adj = (torch.rand(batch, seq_len, seq_len) < 0.3).float()
    adj = ((adj + adj.transpose(1, 2)) > 0).float() + torch.eye(seq_len)
    inter_adj = (torch.rand(batch, seq_len, seq_len) < 0.2).float() + torch.eye(seq_len)
    aspect_start = torch.randint(0, seq_len - 3, (batch,))
    aspect_end = aspect_start + torch.randint(0, 3, (batch,))
    labels = torch.randint(0, 3, (batch,))
    return (tokens, adj, inter_adj, aspect_start, aspect_end), labels


inputs, labels = make_batch()

model = InterGCN()
loss = F.cross_entropy(model(*inputs), labels)
try:
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "inplace operation" in raised, raised

fixed = OutOfPlaceInterGCN()
fixed.load_state_dict(model.state_dict())
opt = torch.optim.Adam(fixed.parameters(), lr=0.02)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = F.cross_entropy(fixed(*inputs), labels)
    loss.backward()
    if step == 0:
        for layer in (fixed.gc3, fixed.gc4):
            assert layer.weight.grad is not None and layer.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0] * 0.7, losses
print("out-of-place mix trains: %.3f -> %.3f" % (losses[0], losses[-1]))
