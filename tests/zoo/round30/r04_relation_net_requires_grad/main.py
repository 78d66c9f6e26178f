"""
expect: GL003 main.py:36
dynamic: confirm
source: https://github.com/liuzhengzhe/One-Thing-One-Click/issues/3

A point-cloud weak-supervision repo: training its Relation-Net fails with "element 0
of tensors does not require grad and does not have a grad_fn". Here the relation
logits reuse the embedding pass from pseudo-labelling, which runs under no_grad, and
the trainer silences the error by switching requires_grad on the loss. Training then
"runs", but no parameter of the net ever gets a gradient. The asserts show the
embedding weights and prototypes keep grad None and stay unchanged, while a fixed
variant that scores with grad enabled gives them nonzero gradients.
"""
import torch
import torch.nn.functional as F
from relation import RelationNet

torch.manual_seed(0)
torch.set_num_threads(1)

voxels = torch.randn(64, 6)
labels = torch.randint(0, 4, (64,))


def train_step(net, opt):
    logits = net.relation_logits(voxels)
    loss = F.cross_entropy(logits, labels)
    return loss


net = RelationNet()
w0 = net.embed[0].weight.detach().clone()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(5):
    loss = train_step(net, opt)
    loss.requires_grad = True  # "fix" for: element 0 of tensors does not require grad
    opt.zero_grad()
    loss.backward()
    opt.step()
assert net.embed[0].weight.grad is None and net.proto.grad is None
assert torch.equal(net.embed[0].weight, w0)

fixed = RelationNet()
z = fixed.embed(voxels)
F.cross_entropy(z @ fixed.proto.t(), labels).backward()
assert fixed.embed[0].weight.grad.abs().sum() > 0
print("ok")
