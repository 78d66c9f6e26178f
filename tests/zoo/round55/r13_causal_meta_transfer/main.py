"""
expect: GL005 main.py:64
dynamic: confirm
source: https://github.com/authors-1901-10912/A-Meta-Transfer-Objective-For-Learning-To-Disentangle-Causal-Mechanisms/issues/1

Meta-transfer objective for causal direction (A->B versus B->A): after an
intervention changes p(A), the two factorisations in models.py are adapted for a
few gradient steps, the mixture log-likelihood seen along the adaptation path is
accumulated into a transfer loss, and that loss is backpropagated to the
structural parameter w. As in the reported notebook, each adaptation step calls
optimizer.step(), which updates the module weights in place while the graph of the
accumulated transfer loss still holds them as saved tensors (the second Linear
layer of each conditional saves its weight). The final loss.backward() therefore
fails with "modified by an inplace operation". The asserts catch that error and
show that scoring the path with detached module log-likelihoods, which leaves the
gradient with respect to w unchanged, trains w without error.
"""
import torch
import torch.nn.functional as F

from models import StructuralModel

torch.manual_seed(0)
torch.set_num_threads(1)

N = 6


def sample(n, pi_a, pi_b_given_a):
    a = torch.multinomial(pi_a, n, replacement=True)
    b = torch.multinomial(pi_b_given_a[a], 1).squeeze(1)
    return torch.stack([a, b], dim=1)


def dirichlet(*shape):
    return torch.distributions.Dirichlet(torch.ones(N)).sample(shape)


pi_a_1 = dirichlet()
pi_b_a = dirichlet(N)


def pretrain(model, steps=200):
    opt = torch.optim.Adam(model.modules_parameters(), lr=0.05)
    for _ in range(steps):
        x = sample(256, pi_a_1, pi_b_a)
        ll_ab, ll_ba = model.log_likelihoods(x)
        opt.zero_grad()
        (-(ll_ab.mean() + ll_ba.mean())).backward()
        opt.step()


def transfer_episode(model, optimizer, meta_optimizer, n_steps=2):
    pi_a_2 = dirichlet()
    model.zero_grad()
    loss = torch.zeros(())
    for _ in range(n_steps):
        x_train = sample(20, pi_a_2, pi_b_a)
        loss = loss - torch.mean(model(x_train))
        optimizer.zero_grad()
        ll_ab, ll_ba = model.log_likelihoods(x_train)
        inner_loss = -torch.mean(ll_ab) - torch.mean(ll_ba)
        inner_loss.backward()
        optimizer.step()
    meta_optimizer.zero_grad()
    loss.backward()
    meta_optimizer.step()


def transfer_episode_fixed(model, optimizer, meta_optimizer, n_steps=2):
    pi_a_2 = dirichlet()
    loss = torch.zeros(())
    for _ in range(n_steps):
        x_train = sample(20, pi_a_2, pi_b_a)
        ll_ab, ll_ba = model.log_likelihoods(x_train)
        loss = loss - torch.mean(model.mix(ll_ab.detach(), ll_ba.detach()))
        optimizer.zero_grad()
        inner_loss = -torch.mean(ll_ab) - torch.mean(ll_ba)
        inner_loss.backward()
        optimizer.step()
    meta_optimizer.zero_grad()
    loss.backward()
    meta_optimizer.step()


model = StructuralModel(N)
pretrain(model)
optimizer = torch.optim.SGD(model.modules_parameters(), lr=0.1)
meta_optimizer = torch.optim.RMSprop([model.w], lr=1e-2)

try:
    transfer_episode(model, optimizer, meta_optimizer)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg

# path scored with detached module log-likelihoods: same dL/dw, no error, w trains
w0 = model.w.item()
for _ in range(30):
    transfer_episode_fixed(model, optimizer, meta_optimizer)
assert model.w.grad is not None and model.w.item() != w0
print(f"structural belief in A->B: {torch.sigmoid(model.w).item():.3f}")
