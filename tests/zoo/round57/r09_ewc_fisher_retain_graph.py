"""
expect: none
dynamic: dismiss
source: https://github.com/spragunr/Continual-Learning-Expandable-EWC/blob/34a26446f8458f1209326e086be19982b9a1d2d3/EWCModel.py

Elastic weight consolidation for continual learning. After a task, the diagonal Fisher
is estimated from one forward pass over a validation batch: classes are sampled from the
model's softmax, one log-likelihood is taken per row, and a Python loop calls
`torch.autograd.grad(loglikelihood, self.parameters(), retain_graph=True)` for each row,
adding the squared gradients into the Fisher buffers with `.add_`. A backward with
retain_graph=True inside a loop looks like the classic leak, but here every iteration
differentiates a different scalar of the *same* single forward, the graph is not
carried into any later iteration or training step (it dies when the function returns),
and the buffers being edited in place were never part of a graph. The program checks the
per-row Fisher equals one computed with a separate forward per sample, that no .grad is
left behind, and that the EWC penalty built from it keeps the task-A weights closer
while training on task B.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EWCMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 3)
        self.list_of_fisher_diags = [torch.zeros_like(p) for p in self.parameters()]
        self.theta_star = None

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

    def estimate_fisher(self, data):
        for diag in self.list_of_fisher_diags:
            diag.zero_()
        softmax_activations = F.softmax(self(data), dim=-1)
        class_indices = torch.multinomial(softmax_activations, 1)
        random_log_likelihoods = []
        for row in range(len(class_indices)):
            random_log_likelihoods.append(
                torch.log(softmax_activations[row].index_select(0, class_indices[row])))
        for loglikelihood in random_log_likelihoods:
            loglikelihood_grads = torch.autograd.grad(loglikelihood, self.parameters(), retain_graph=True)
            for i in range(len(self.list_of_fisher_diags)):
                self.list_of_fisher_diags[i].add_(torch.pow(loglikelihood_grads[i], 2.0))
        for i in range(len(self.list_of_fisher_diags)):
            self.list_of_fisher_diags[i] /= len(data)
        self.theta_star = [p.detach().clone() for p in self.parameters()]
        return class_indices

    def ewc_penalty(self, lam):
        return lam / 2 * sum((f * (p - t) ** 2).sum()
                             for f, p, t in zip(self.list_of_fisher_diags, self.parameters(), self.theta_star))


def task(shift, n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g) + shift
    y = ((x[:, 0] - shift > 0).long() + (x[:, 1] - shift > 0.5).long())
    return x, y


def fit(model, x, y, steps, lam=0.0):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        if lam:
            loss = loss + model.ewc_penalty(lam)
        loss.backward()
        opt.step()


xa, ya = task(0.0, seed=1)
xb, yb = task(2.0, seed=2)
x_val, _ = task(0.0, n=24, seed=3)

model = EWCMLP()
fit(model, xa, ya, 200)
model.zero_grad(set_to_none=True)
torch.manual_seed(5)
cls = model.estimate_fisher(x_val)
assert all(p.grad is None for p in model.parameters())

# reference Fisher: a separate forward per sample, same sampled classes
ref = [torch.zeros_like(p) for p in model.parameters()]
for i in range(len(x_val)):
    ll = torch.log(F.softmax(model(x_val[i:i + 1]), dim=-1)[0, cls[i, 0]])
    for r, g in zip(ref, torch.autograd.grad(ll, list(model.parameters()))):
        r.add_(g ** 2)
for r, f in zip(ref, model.list_of_fisher_diags):
    assert torch.allclose(r / len(x_val), f, atol=1e-6)

# EWC keeps task-A weights closer while learning task B
state = {k: v.clone() for k, v in model.state_dict().items()}
drift = {}
for lam in (0.0, 50.0):
    m = EWCMLP()
    m.load_state_dict(state)
    m.list_of_fisher_diags = [f.clone() for f in model.list_of_fisher_diags]
    m.theta_star = [t.clone() for t in model.theta_star]
    fit(m, xb, yb, 100, lam=lam)
    drift[lam] = sum((f * (p.detach() - t) ** 2).sum().item()
                     for f, p, t in zip(m.list_of_fisher_diags, m.parameters(), m.theta_star))
assert drift[50.0] < 0.5 * drift[0.0], drift
print("r09 ok: per-row Fisher matches per-sample reference; weighted drift %.4f (EWC) vs %.4f" % (drift[50.0], drift[0.0]))
