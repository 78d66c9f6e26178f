"""
expect: none
dynamic: dismiss
source: https://github.com/AdrienLE/learning_by_grad_by_grad_repro/blob/bed5dab4bf9e7c5e7de42b725418e7ff1fbe4f15/Grad%5E2.ipynb

A reproduction of "Learning to learn by gradient descent by gradient descent": a
coordinate-wise two-layer LSTM proposes the update for each parameter of an optimizee
(here a random quadratic), the meta-loss is the sum of the optimizee's losses along the
unrolled trajectory, and the LSTM is meta-trained with truncated backprop. The notebook
looks like a collection of autograd red flags: the optimizee gradient fed to the LSTM
is rebuilt with `Variable(p.grad.data, requires_grad=True)` (a detach; this copy also
clones, so the LSTM's saved input cannot alias the .grad buffer that later backward
calls accumulate into), each step calls
`loss.backward(retain_graph=True)` inside the loop while the trajectory's graph keeps
growing, and every `unroll` steps parameters and hidden states are cut again with the
same detach helper. All of it is intended: the paper drops second derivatives, so the
gradient input must be a constant; the per-step backward only produces that input and
must not free the trajectory's graph that the meta-loss still needs; and the periodic
cut is the truncation that bounds the graph (after the meta step the new leaves have
no history). The asserts show the LSTM gets non-zero meta-gradients, the graph restarts
at every truncation, and after a short meta-training the learned optimizer reaches a
lower summed loss on fresh quadratics than it did before meta-training.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

DIM, HIDDEN, UNROLL, OPTIM_IT = 10, 20, 5, 20


def detach_var(v):
    var = v.detach().clone().requires_grad_(True)
    var.retain_grad()
    return var


class Quadratic:
    def __init__(self):
        self.W = torch.randn(DIM, DIM)
        self.y = torch.randn(DIM)

    def loss(self, theta):
        return ((self.W @ theta - self.y) ** 2).sum()


class LSTMOptimizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell1 = nn.LSTMCell(1, HIDDEN)
        self.cell2 = nn.LSTMCell(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, 1)

    def forward(self, grad, hidden, cell):
        h0, c0 = self.cell1(grad, (hidden[0], cell[0]))
        h1, c1 = self.cell2(h0, (hidden[1], cell[1]))
        return self.out(h1), (h0, h1), (c0, c1)


def do_fit(opt_net, meta_opt, out_mul=0.1, train=True, probe=None):
    unroll = UNROLL if train else 1
    target = Quadratic()
    theta = torch.zeros(DIM, requires_grad=True)
    hidden = [torch.zeros(DIM, HIDDEN) for _ in range(2)]
    cell = [torch.zeros(DIM, HIDDEN) for _ in range(2)]
    all_losses, history = None, []
    for it in range(1, OPTIM_IT + 1):
        loss = target.loss(theta)
        all_losses = loss if all_losses is None else all_losses + loss
        history.append(loss.item())
        loss.backward(retain_graph=train)

        grads = detach_var(theta.grad.view(DIM, 1))
        update, hidden, cell = opt_net(grads, hidden, cell)
        theta = theta + update.view(DIM) * out_mul
        theta.retain_grad()

        if it % unroll == 0:
            if train:
                meta_opt.zero_grad()
                all_losses.backward()
                if probe is not None:
                    probe.append([p.grad.clone() for p in opt_net.parameters()])
                meta_opt.step()
            all_losses = None
            theta = detach_var(theta)
            hidden = [detach_var(h) for h in hidden]
            cell = [detach_var(c) for c in cell]
            if probe is not None:
                assert theta.grad_fn is None and all(h.grad_fn is None for h in hidden)
    return sum(history)


def evaluate(opt_net, n=20):
    torch.manual_seed(123)
    return sum(do_fit(opt_net, None, train=False) for _ in range(n)) / n


if __name__ == "__main__":
    opt_net = LSTMOptimizer()
    meta_opt = torch.optim.Adam(opt_net.parameters(), lr=3e-3)
    before = evaluate(opt_net)

    torch.manual_seed(1)
    probe = []
    for _ in range(60):
        do_fit(opt_net, meta_opt, probe=probe)
    assert all(g.abs().sum() > 0 for g in probe[0])
    after = evaluate(opt_net)
    assert after < before, (before, after)
    print(f"ok: learned optimizer meta-trains through truncated unrolls ({before:.1f} -> {after:.1f})")
