"""
expect: none
dynamic: dismiss
source: https://github.com/fzenke/spytorch/issues/2

A surrogate-gradient spiking network in the SpyTorch tutorial style: a custom autograd Function emits Heaviside
spikes in the forward pass and a fast-sigmoid derivative in the backward pass, and leaky integrate-and-fire
membranes are unrolled over time. The reset term is a detached copy of the spike output. In the linked issue a
reader asked why a separate reset tensor is built when it equals the spikes; the author explained that it keeps
gradients from flowing through the reset, which makes learning more robust, and that it is the same as writing
`out.detach()`. The detach is on purpose and both weight matrices still learn through the spike path: the asserts
show non-zero gradients for both layers and a falling loss.
"""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SurrGradSpike(torch.autograd.Function):
    scale = 10.0

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        out = torch.zeros_like(x)
        out[x > 0] = 1.0
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (SurrGradSpike.scale * x.abs() + 1.0) ** 2


spike_fn = SurrGradSpike.apply
nb_in, nb_hidden, nb_out, nb_steps, batch = 20, 16, 2, 25, 8
alpha, beta = 0.9, 0.85

w1 = torch.empty(nb_in, nb_hidden).normal_(0, 3.0 / nb_in ** 0.5).requires_grad_()
w2 = torch.empty(nb_hidden, nb_out).normal_(0, 1.0 / nb_hidden ** 0.5).requires_grad_()


def run_snn(inputs):
    h1 = torch.einsum("btc,cd->btd", inputs, w1)
    syn = torch.zeros(batch, nb_hidden)
    mem = torch.zeros(batch, nb_hidden)
    spk_rec = []
    for t in range(nb_steps):
        out = spike_fn(mem - 1.0)
        rst = out.detach()  # no gradient through the reset
        new_syn = alpha * syn + h1[:, t]
        new_mem = (beta * mem + syn) * (1.0 - rst)
        spk_rec.append(out)
        mem, syn = new_mem, new_syn
    spk_rec = torch.stack(spk_rec, dim=1)
    h2 = torch.einsum("btc,cd->btd", spk_rec, w2)
    flt = torch.zeros(batch, nb_out)
    out_mem = torch.zeros(batch, nb_out)
    rec = []
    for t in range(nb_steps):
        flt = alpha * flt + h2[:, t]
        out_mem = beta * out_mem + flt
        rec.append(out_mem)
    return torch.stack(rec, dim=1)


inputs = (torch.rand(batch, nb_steps, nb_in) < 0.2).float()
labels = torch.randint(0, nb_out, (batch,))
opt = torch.optim.Adam([w1, w2], lr=2e-3)
losses = []
for _ in range(40):
    out = run_snn(inputs)
    loss = F.cross_entropy(out.max(dim=1).values, labels)
    opt.zero_grad()
    loss.backward()
    assert w1.grad.abs().sum() > 0 and w2.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("surrogate-gradient SNN with detached reset trains: %.3f -> %.3f" % (losses[0], losses[-1]))
