"""
expect: none
dynamic: dismiss
source: https://github.com/lucidrains/PaLM-rlhf-pytorch/issues/61

The issue says the PPO update should call backward with retain_graph=True on the
policy loss, because otherwise the graph is freed before the value loss is
backpropagated through the shared part. This program builds a PPO learner whose
actor and critic heads share one trunk, backpropagates the policy loss with
retain_graph=True and then the value loss, in a loop over minibatches. Every
iteration runs a fresh forward pass and nothing from it is carried into the
next, so the retained graph is dropped each time. The asserts show the second
backward is needed (it fails without retention), both heads and the trunk get
gradients, and the graph size stays the same across iterations.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, s_dim=6, n_act=4):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(s_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.trunk(s)
        return torch.log_softmax(self.pi(h), -1), self.v(h).squeeze(-1)


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        n = todo.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        todo.extend(m for m, _ in n.next_functions)
    return len(seen)


def ppo_losses(model, s, a, old_logp, adv, ret, clip=0.2):
    logp_all, value = model(s)
    logp = logp_all.gather(1, a[:, None]).squeeze(1)
    ratio = (logp - old_logp).exp()
    policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
    value_loss = F.mse_loss(value, ret)
    return policy_loss, value_loss


torch.manual_seed(0)
model = ActorCritic()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
s, a = torch.randn(64, 6), torch.randint(0, 4, (64,))
with torch.no_grad():
    old_logp = model(s)[0].gather(1, a[:, None]).squeeze(1)
adv, ret = torch.randn(64), torch.randn(64)

pl, vl = ppo_losses(model, s, a, old_logp, adv, ret)
pl.backward()
try:
    vl.backward()
    second_ok = True
except RuntimeError:
    second_ok = False
assert not second_ok

sizes = []
w0 = model.trunk[0].weight.detach().clone()
for epoch in range(4):
    for idx in torch.randperm(64).split(16):
        opt.zero_grad()
        pl, vl = ppo_losses(model, s[idx], a[idx], old_logp[idx], adv[idx], ret[idx])
        pl.backward(retain_graph=True)
        vl.backward()
        assert model.pi.weight.grad.abs().sum() > 0 and model.v.weight.grad.abs().sum() > 0
        sizes.append(graph_size(vl))
        opt.step()
assert len(set(sizes)) == 1, sizes
assert not torch.equal(w0, model.trunk[0].weight)
print("graph size per minibatch:", sizes[0], "x", len(sizes))
