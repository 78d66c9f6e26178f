"""source: https://github.com/lightly-ai/lightly/issues/559

SimSiam pre-training on two augmented views: the model (in siamese.py) returns the
predictions and the stop-gradient targets z.detach(), and the loss is the symmetric negative
cosine similarity. The detach is the method's stop-gradient, not a bug: encoder and predictor
both still receive gradients through the prediction branch.
"""
import torch
import torch.nn.functional as F

from siamese import SimSiam


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def neg_cosine(p, z):
    return -F.cosine_similarity(p, z, dim=-1).mean()


torch.manual_seed(0)
model = SimSiam()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
enc_before = model.encoder[0][0].weight.detach().clone()

for step in range(5):
    batch = torch.randn(16, 32)
    p1, p2, z1, z2 = model(augment(batch), augment(batch))
    loss = 0.5 * (neg_cosine(p1, z2) + neg_cosine(p2, z1))
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
    opt.step()

assert not torch.equal(model.encoder[0][0].weight, enc_before)
print("ok: encoder and predictor both train")
