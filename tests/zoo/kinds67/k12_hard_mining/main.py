"""
expect: none
dynamic: dismiss
source: none, invented

Online hard-example mining (OHEM) for a small classifier. `steps.train_step(model, opt,
*batch, mine_on_cpu=...)` gets the batch spread into it and a keyword flag choosing how the
hardest half of the batch is picked: on CPU with NumPy (`detach().numpy()`, `np.argsort`,
`torch.from_numpy` of the indices) or with `torch.topk`. In both paths the NumPy / detached
values only decide which samples count; the loss is the mean of the attached per-sample
cross-entropy gathered at those indices, so nothing rebuilt from NumPy enters the loss
values. The script calls it both ways. The asserts show both paths select the same samples,
produce identical gradients, and that the network's layers get non-zero gradients and
train over several steps.
"""
import torch
import torch.nn as nn

from steps import train_step

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch = (torch.randn(16, 20), torch.randint(0, 4, (16,)))

loss_np, idx_np = train_step(model, opt, *batch, mine_on_cpu=True)
grad_np = model[0].weight.grad.clone()
loss_t, idx_t = train_step(model, opt, *batch, mine_on_cpu=False)
grad_t = model[0].weight.grad.clone()
assert set(idx_np.tolist()) == set(idx_t.tolist())
assert torch.allclose(loss_np, loss_t)
assert torch.allclose(grad_np, grad_t, atol=1e-7)
assert grad_np.abs().sum() > 0

before = [p.detach().clone() for p in model.parameters()]
for step in range(6):
    data = (torch.randn(16, 20), torch.randint(0, 4, (16,)))
    loss, _ = train_step(model, opt, *data, mine_on_cpu=step % 2 == 0)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
assert all(not torch.equal(p, b) for p, b in zip(model.parameters(), before))
print("ok")
