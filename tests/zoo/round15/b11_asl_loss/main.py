"""
expect: GL005 losses.py:28
dynamic: confirm
source: https://github.com/huggingface/pytorch-image-models/pull/1500

The PR removed in-place operators from the asymmetric multi-label loss because using it raised
"one of the variables needed for gradient computation has been modified by an inplace operation".
This program keeps a memory-lean asymmetric loss in losses.py that reuses its probability buffers:
it multiplies the sigmoid output by the targets in place when building the focusing weight, after
`torch.sigmoid` and the clamped log had saved that same tensor for backward. The backward pass of a
small multi-label classifier raises a RuntimeError mentioning "inplace"; the out-of-place variant
(same loss value) trains the classifier. The earlier in-place clip of the negative probabilities is
harmless because nothing had saved that tensor yet.
"""
import torch
import torch.nn as nn

from losses import AsymmetricLossLean

torch.manual_seed(0)

x = torch.randn(16, 12)
y = (torch.rand(16, 5) > 0.7).float()

classifier = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 5))
criterion = AsymmetricLossLean()
loss = criterion(classifier(x), y)
try:
    loss.backward()
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "inplace" in str(err), err

reference = AsymmetricLossLean(lean=False)
with torch.no_grad():
    assert torch.allclose(reference(classifier(x), y), criterion(classifier(x), y))

opt = torch.optim.SGD(classifier.parameters(), lr=0.05)
w0 = classifier[0].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    reference(classifier(x), y).backward()
    opt.step()
assert not torch.equal(w0, classifier[0].weight.detach())
print("ok: in-place mul_ on the saved sigmoid output breaks backward")
