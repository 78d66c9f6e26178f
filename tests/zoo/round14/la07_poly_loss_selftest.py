"""
expect: none
dynamic: dismiss
source: https://github.com/abhuse/polyloss-pytorch/issues/4

The report: the README example for the Poly-1 cross-entropy loss throws "element 0 of
tensors does not require grad" on loss.backward(), and the fix is to create the example
logits with requires_grad=True. This program rebuilds that example as a self-test: random
logits are built (and scaled), then switched on with requires_grad_() because they are the
very tensor whose gradient the test checks, and the loss is also used to train a small
classifier. It is a look-alike: the switched tensor is a fresh leaf with no history to lose,
so the asserts show logits.grad matches a finite-difference check (gradcheck) and the
classifier trained with the loss improves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Poly1CrossEntropy(nn.Module):
    def __init__(self, num_classes, epsilon=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon

    def forward(self, logits, labels):
        one_hot = F.one_hot(labels, self.num_classes).to(logits.dtype)
        pt = (one_hot * F.softmax(logits, dim=-1)).sum(dim=-1)
        ce = F.cross_entropy(logits, labels, reduction="none")
        return (ce + self.epsilon * (1 - pt)).mean()


batch_size, num_classes = 6, 4
crit = Poly1CrossEntropy(num_classes)
logits = torch.rand(batch_size, num_classes, dtype=torch.double) * 3
logits.requires_grad_()
labels = torch.randint(0, num_classes, (batch_size,))
loss = crit(logits, labels)
loss.backward()
assert logits.grad is not None and logits.grad.abs().sum() > 0
assert torch.autograd.gradcheck(lambda z: crit(z, labels), (logits.detach().clone().requires_grad_(),))

model = nn.Linear(5, num_classes)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(64, 5)
y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
first = crit(model(x), y).item()
for _ in range(50):
    opt.zero_grad()
    l = crit(model(x), y)
    l.backward()
    opt.step()
assert l.item() < 0.7 * first, (first, l.item())
print("ok: requires_grad_ on the freshly built test logits is exactly what the test needs")
