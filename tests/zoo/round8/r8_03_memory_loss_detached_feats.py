"""
expect: GL001 46
dynamic: confirm
source: https://github.com/haowang1992/DSN/issues/1

Sketch/photo retrieval training with an external feature memory (DSN). Each
step stores detached features in a memory bank (correct: the bank is only a
buffer) and adds a memory loss `1 - memory.memory_loss(features.detach(), y)`
to the total. Because the features are detached at the call site, the memory
term is a constant: it changes the reported loss but sends no gradient into
the encoder the optimizer is training. Asserted: the encoder gradients are
identical with and without the memory term, and the term has no history.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FeatureMemory:
    def __init__(self, n_classes, dim):
        self.bank = torch.zeros(n_classes, dim)

    def add_entries(self, feats, labels):
        self.bank.index_copy_(0, labels, F.normalize(feats, dim=1))

    def memory_loss(self, feats, labels):
        sims = F.normalize(feats, dim=1) @ self.bank.t()
        return sims.gather(1, labels[:, None]).mean()


encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
classifier = nn.Linear(8, 4)
opt = torch.optim.SGD(list(encoder.parameters()) + list(classifier.parameters()), lr=0.1)
memory = FeatureMemory(4, 8)
x = torch.randn(8, 10)
y = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])


def train_step(use_memory):
    opt.zero_grad()
    feats = encoder(x)
    cls_loss = F.cross_entropy(classifier(feats), y)
    memory.add_entries(feats[:4].detach(), y[:4])
    loss_memory = 1 - memory.memory_loss(feats.detach(), y)
    total = cls_loss + 0.5 * loss_memory if use_memory else cls_loss
    total.backward()
    return [p.grad.clone() for p in encoder.parameters()], loss_memory


g_with, mem_value = train_step(True)
g_without, _ = train_step(False)
assert abs(mem_value.item() - 1.0) > 1e-6, "memory term should have a real value"
assert not mem_value.requires_grad, "memory term should carry no history"
for a, b in zip(g_with, g_without):
    assert torch.equal(a, b), "memory loss reached the encoder"
print("OK: memory loss adds %.4f but zero gradient to the encoder" % mem_value.item())
