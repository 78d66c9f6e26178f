"""
expect: GL005 networks.py:22
dynamic: confirm
source: https://github.com/adambielski/siamese-triplet/issues/51

In siamese-triplet, EmbeddingNetL2 normalises the embedding with an in-place division
(output /= norm). The norm was computed with output.pow(2), which saved output for its
backward, so the in-place edit bumps the version of a tensor autograd still needs; the reporter
hit "modified by an inplace operation" as soon as they trained a triplet network with it. This
reproduction trains a tiny TripletNet on random 14x14 patches: the asserts show the in-place
variant fails at backward with the version-counter error, and the out-of-place variant trains.
"""
import torch
import torch.nn.functional as F

from networks import EmbeddingNetL2, EmbeddingNetL2Fixed, TripletNet

torch.manual_seed(0)
torch.set_num_threads(1)


def triplet_step(model, opt, margin=0.2):
    a, p, n = (torch.randn(6, 1, 14, 14) for _ in range(3))
    p = a + 0.1 * p
    ea, ep, en = model(a, p, n)
    loss = F.relu((ea - ep).pow(2).sum(1) - (ea - en).pow(2).sum(1) + margin).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


model = TripletNet(EmbeddingNetL2())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
failed = None
try:
    triplet_step(model, opt)
except RuntimeError as err:
    failed = str(err)
assert failed is not None and "inplace operation" in failed

fixed = TripletNet(EmbeddingNetL2Fixed())
fixed.load_state_dict(model.state_dict())
opt_f = torch.optim.SGD(fixed.parameters(), lr=0.05)
before = [p.detach().clone() for p in fixed.parameters()]
for _ in range(3):
    triplet_step(fixed, opt_f)
assert any(not torch.equal(b, p) for b, p in zip(before, fixed.parameters()))
with torch.no_grad():
    e = fixed.embedding_net(torch.randn(4, 1, 14, 14))
assert torch.allclose(e.norm(dim=1), torch.ones(4), atol=1e-5)
print("q02 ok: in-place L2 normalisation breaks backward; out-of-place version trains")
