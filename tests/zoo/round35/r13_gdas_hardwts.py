"""
expect: none
dynamic: dismiss
source: https://github.com/D-X-Y/AutoDL-Projects/issues/99

A user asked why the GDAS search model builds its one-hot edge weights as
`one_h - probs.detach() + probs`. The maintainer explained it is the
straight-through Gumbel trick: the forward value is exactly one-hot (so
only the sampled operation runs) while the backward uses the soft
probabilities. The detach is deliberate and cancels in value only. The
asserts check that the weights are exactly one-hot, the architecture
logits still get a non-zero gradient, and it equals the chain-rule gradient through
the soft probability of the sampled operation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MixedEdge(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ops = nn.ModuleList([
            nn.Linear(dim, dim),
            nn.Sequential(nn.Linear(dim, dim), nn.ReLU()),
            nn.Identity(),
        ])

    def forward(self, x, hardwts, index):
        # only the sampled op is evaluated, scaled by its hard weight
        return hardwts[index] * self.ops[index](x)


class SearchCell(nn.Module):
    def __init__(self, dim, n_ops=3, tau=1.0):
        super().__init__()
        self.edge = MixedEdge(dim)
        self.arch_logits = nn.Parameter(1e-3 * torch.randn(n_ops))
        self.tau = tau

    def sample_weights(self):
        gumbels = -torch.empty_like(self.arch_logits).exponential_().log()
        probs = F.softmax((self.arch_logits.log_softmax(-1) + gumbels) / self.tau, -1)
        index = probs.max(-1, keepdim=True)[1]
        one_h = torch.zeros_like(probs).scatter_(-1, index, 1.0)
        hardwts = one_h - probs.detach() + probs
        return hardwts, probs, int(index)

    def forward(self, x):
        hardwts, probs, index = self.sample_weights()
        return self.edge(x, hardwts, index), hardwts, probs, index


cell = SearchCell(8)
head = nn.Linear(8, 1)
x = torch.randn(16, 8)
y = torch.randn(16, 1)

torch.manual_seed(1)
out, hardwts, probs, index = cell(x)
loss = F.mse_loss(head(out), y)
loss.backward()
g_arch = cell.arch_logits.grad.clone()

# same sample: the chain rule through the soft probability of the chosen op
cell.zero_grad()
torch.manual_seed(1)
_, _, probs2, index2 = cell(x)
op_out = cell.edge.ops[index2](x).detach().requires_grad_(True)
g_out = torch.autograd.grad(F.mse_loss(head(op_out), y), op_out)[0]
inner = (g_out * op_out.detach()).sum()
g_ref = torch.autograd.grad(probs2[index2] * inner, cell.arch_logits)[0]

print("hard weights", hardwts.tolist(), "arch grad", g_arch.tolist())
assert torch.allclose(hardwts.detach(), F.one_hot(torch.tensor(index), 3).float())
assert g_arch.abs().sum() > 0, "architecture logits must still learn"
assert torch.allclose(g_arch, g_ref, atol=1e-6)
print("ok: straight-through detach keeps the architecture gradient")
