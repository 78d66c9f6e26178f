"""
expect: GL003 trainer.py:40
dynamic: confirm
source: https://github.com/liqingchunnnn/Only-Noisy-Training/blob/67ef5caee9a2073b99b170f085e9a323f47828ab/train.py#L198-L225

Only-Noisy-Training trains a speech denoiser from noisy audio alone
(Noisier2Noise-style sub-sampled pairs).  Its test_epoch computes the loss
inside `with torch.no_grad():`, and because loss.backward() then raised
"element 0 of tensors does not require grad", the code does
`loss = loss.requires_grad_()` followed by loss.backward() and
optimizer.step().  The switch turns the history-less loss into a fresh leaf,
so backward reaches no weight, but optimizer.step() still runs once per test
batch with the gradients left over from the last training batch: every
"evaluation" silently keeps moving the weights with a stale gradient.  Here
the epochs live in trainer.py and main.py drives them on tiny random
waveforms.  The asserts show the test loss had no graph, the weights' .grad
is exactly the last training gradient after the test epoch, and the weights
changed during evaluation; the fixed test epoch (no backward, no step) leaves
the weights untouched.
"""
import torch
import torch.nn as nn

from trainer import subsample2, train_epoch, test_epoch

torch.manual_seed(0)
torch.set_num_threads(1)


def make_loader(n_batches=3, batch=4, length=64):
    data = []
    for _ in range(n_batches):
        clean = torch.sin(torch.linspace(0, 12, length)).repeat(batch, 1, 1)
        noisy = clean + 0.3 * torch.randn(batch, 1, length)
        g1, g2 = subsample2(noisy)
        data.append((noisy, g1, g2))
    return data


def make_net():
    return nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.Tanh(), nn.Conv1d(8, 1, 5, padding=2))


train_loader, test_loader = make_loader(), make_loader()

# original evaluation step
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
train_epoch(net, train_loader, opt)
grad_after_train = [p.grad.clone() for p in net.parameters()]
w_before_test = [p.detach().clone() for p in net.parameters()]
with torch.no_grad():
    probe = net(test_loader[0][1]).sum()
assert probe.grad_fn is None                      # the test loss has no history
test_epoch(net, test_loader, opt, buggy=True)
assert all(torch.equal(g, p.grad) for g, p in zip(grad_after_train, net.parameters()))
assert any(not torch.equal(w, p) for w, p in zip(w_before_test, net.parameters()))

# fixed evaluation step: measure only
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
train_epoch(net, train_loader, opt)
w_before_test = [p.detach().clone() for p in net.parameters()]
test_epoch(net, test_loader, opt, buggy=False)
assert all(torch.equal(w, p) for w, p in zip(w_before_test, net.parameters()))
