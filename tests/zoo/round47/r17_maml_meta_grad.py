"""
expect: none
dynamic: dismiss
source: https://github.com/katerakelly/pytorch-maml/issues/18

MAML laid out as in the pytorch-maml code: a fast network copies the meta-network's weights through .data, takes
inner steps into an OrderedDict of fast weights (autograd.grad with create_graph=True, first with respect to its
own parameters, then with respect to the fast weights), evaluates the query loss with the adapted weights and
takes autograd.grad of that loss with respect to its *own pre-update* parameters, which the issue asked about.
The meta-gradients are summed over tasks and written into the meta-network through gradient hooks on a dummy
loss. Nothing here cuts the meta-gradient: the fast weights are differentiable functions of the pre-update
parameters, the .data copy only separates the two modules on purpose, and the hooks deliver the computed
gradients. The asserts check that the meta-gradient contains the second-order term (it differs from the
first-order one), that the hooks move the meta-network, and that meta-training lowers the post-adaptation loss.
"""
import math
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SineNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1, 32)
        self.fc2 = nn.Linear(32, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x, weights=None):
        if weights is None:
            return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))
        h = F.relu(F.linear(x, weights["fc1.weight"], weights["fc1.bias"]))
        h = F.relu(F.linear(h, weights["fc2.weight"], weights["fc2.bias"]))
        return F.linear(h, weights["out.weight"], weights["out.bias"])

    def copy_weights(self, net):
        for m_from, m_to in zip(net.modules(), self.modules()):
            if isinstance(m_to, nn.Linear):
                m_to.weight.data = m_from.weight.data.clone()
                m_to.bias.data = m_from.bias.data.clone()


class InnerLoop(SineNet):
    def __init__(self, num_updates, step_size, meta_batch_size):
        super().__init__()
        self.num_updates = num_updates
        self.step_size = step_size
        self.meta_batch_size = meta_batch_size

    def forward_pass(self, x, y, weights=None):
        return F.mse_loss(super().forward(x, weights), y)

    def forward(self, task, second_order=True):
        x_tr, y_tr, x_val, y_val = task
        fast_weights = OrderedDict((name, p) for name, p in self.named_parameters())
        for i in range(self.num_updates):
            if i == 0:
                loss = self.forward_pass(x_tr, y_tr)
                grads = torch.autograd.grad(loss, self.parameters(), create_graph=second_order)
            else:
                loss = self.forward_pass(x_tr, y_tr, fast_weights)
                grads = torch.autograd.grad(loss, list(fast_weights.values()), create_graph=second_order)
            fast_weights = OrderedDict(
                (name, p - self.step_size * g) for ((name, p), g) in zip(fast_weights.items(), grads)
            )
        val_loss = self.forward_pass(x_val, y_val, fast_weights) / self.meta_batch_size
        grads = torch.autograd.grad(val_loss, self.parameters())
        return val_loss.item() * self.meta_batch_size, {n: g for (n, _), g in zip(self.named_parameters(), grads)}


def sample_task(n=10):
    amp, phase = torch.empty(1).uniform_(0.5, 3.0), torch.empty(1).uniform_(0, math.pi)
    x = torch.empty(2 * n, 1).uniform_(-5, 5)
    y = amp * torch.sin(x + phase)
    return x[:n], y[:n], x[n:], y[n:]


META_BATCH = 4
net = SineNet()
fast_net = InnerLoop(num_updates=2, step_size=0.01, meta_batch_size=META_BATCH)
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def meta_update(task, grads_list):
    gradients = {k: sum(g[k] for g in grads_list) for k in grads_list[0]}
    hooks = []
    for key, value in net.named_parameters():
        def get_closure(k=key):
            def replace_grad(grad):
                return gradients[k]
            return replace_grad
        hooks.append(value.register_hook(get_closure()))
    meta_opt.zero_grad()
    loss = F.mse_loss(net(task[0]), task[1])
    loss.backward()
    meta_opt.step()
    for h in hooks:
        h.remove()


probe = sample_task()
fast_net.copy_weights(net)
_, second = fast_net(probe, second_order=True)
_, first = fast_net(probe, second_order=False)
assert all(g.abs().sum() > 0 for g in second.values())
assert any(not torch.allclose(second[k], first[k], atol=1e-7) for k in second)

eval_tasks = [sample_task() for _ in range(20)]


def post_adaptation_loss():
    total = 0.0
    for task in eval_tasks:
        fast_net.copy_weights(net)
        loss, _ = fast_net(task)
        total += loss
    return total / len(eval_tasks)


start = post_adaptation_loss()
w0 = net.fc1.weight.detach().clone()
for it in range(100):
    grads_list = []
    for _ in range(META_BATCH):
        fast_net.copy_weights(net)
        _, g = fast_net(sample_task())
        grads_list.append(g)
    meta_update(sample_task(), grads_list)
end = post_adaptation_loss()
assert not torch.equal(w0, net.fc1.weight)
assert end < start, (start, end)
print(f"post-adaptation query loss {start:.3f} -> {end:.3f}")
