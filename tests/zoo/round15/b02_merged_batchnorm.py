"""
expect: GL001 35
dynamic: confirm
source: https://github.com/chr5tphr/zennit/pull/185

The PR reports that after canonizing a model with MergeBatchNorm, gradients with respect to the
original linear parameters were not computed, because the merged weights were built from
detached / overwritten tensors instead of tensors that depend on the originals. This program
folds a BatchNorm into the preceding Linear at forward time, building the merged weight from
`.data`. After a backward pass the original Linear weight has `.grad is None` and stays unchanged
after optimizer steps, while its bias (folded without `.data`) does receive a gradient; the same
fold written without `.data` gives the weight a gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MergedLinearBN(nn.Module):
    """Linear followed by BatchNorm1d, evaluated as one merged affine map."""

    def __init__(self, d_in, d_out, use_data=True):
        super().__init__()
        self.linear = nn.Linear(d_in, d_out)
        self.bn = nn.BatchNorm1d(d_out)
        self.use_data = use_data
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)

    def merged_params(self):
        scale = self.bn.weight / torch.sqrt(self.bn.running_var + self.bn.eps)
        if self.use_data:
            merged_weight = self.linear.weight.data * scale.data[:, None]
        else:
            merged_weight = self.linear.weight * scale[:, None]
        merged_bias = (self.linear.bias - self.bn.running_mean) * scale + self.bn.bias
        return merged_weight, merged_bias

    def forward(self, x):
        w, b = self.merged_params()
        return x @ w.t() + b


class CanonizedClassifier(nn.Module):
    def __init__(self, use_data=True):
        super().__init__()
        self.block = MergedLinearBN(8, 16, use_data)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(torch.relu(self.block(x)))


def fine_tune(model, steps=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 8)
    y = torch.randint(0, 3, (32,))
    first_grads = None
    for i in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        if first_grads is None:
            first_grads = {n: p.grad for n, p in model.named_parameters()}
        opt.step()
    return first_grads


model = CanonizedClassifier(use_data=True)
w0 = model.block.linear.weight.detach().clone()
grads = fine_tune(model)
assert grads["block.linear.weight"] is None, "merged weight came from .data: no gradient"
assert grads["block.linear.bias"] is not None and grads["block.linear.bias"].abs().sum() > 0
assert torch.equal(w0, model.block.linear.weight.detach()), "original weight never trains"

ref = CanonizedClassifier(use_data=False)
grads_ref = fine_tune(ref)
assert grads_ref["block.linear.weight"] is not None
assert grads_ref["block.linear.weight"].abs().sum() > 0
print("ok: folding through .data leaves linear.weight without gradient")
