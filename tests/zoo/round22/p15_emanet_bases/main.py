"""
expect: none
dynamic: dismiss
source: https://github.com/XiaLiPKU/EMANet/issues/8

An issue on EMANet pointed at the moving-average update of the attention bases in
train.py, `self.net.module.ema.mu *= momentum; ... += mu * (1 - momentum)`, which named
the wrong attribute (the maintainer agreed and fixed it to `emau`). The update itself is
an in-place edit of a buffer that was used in this iteration's forward pass and runs
before `loss.backward()`. It is safe: forward only reads the buffer through `repeat`,
which saves nothing for backward. The asserts show backward succeeds, every parameter
gets a gradient equal to the one obtained when the update runs after backward, the
bases move, and the loss falls.
"""
import copy

import torch

from network import EMANet

torch.set_num_threads(1)

EM_MOM = 0.9


class Session:
    def __init__(self, net, update_before_backward=True):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
        self.update_before_backward = update_before_backward

    def ema_update(self, mu):
        with torch.no_grad():
            mu = mu.mean(dim=0, keepdim=True)
            self.net.emau.mu *= EM_MOM
            self.net.emau.mu += mu * (1 - EM_MOM)

    def train_batch(self, image, label):
        loss, mu = self.net(image, label)
        if self.update_before_backward:
            self.ema_update(mu)
        self.opt.zero_grad()
        loss.backward()
        if not self.update_before_backward:
            self.ema_update(mu)
        grads = [p.grad.clone() for p in self.net.parameters()]
        self.opt.step()
        return loss.item(), grads


torch.manual_seed(0)
net = EMANet()
twin = copy.deepcopy(net)
image, label = torch.rand(4, 3, 8, 8), torch.randint(0, 3, (4, 8, 8))
mu0 = net.emau.mu.clone()

sess, ref = Session(net), Session(twin, update_before_backward=False)
losses = []
for _ in range(25):
    loss, grads = sess.train_batch(image, label)
    _, ref_grads = ref.train_batch(image, label)
    assert all(torch.allclose(a, b) for a, b in zip(grads, ref_grads))
    losses.append(loss)

assert all(g.abs().sum() > 0 for g in grads)
assert not torch.equal(mu0, net.emau.mu)
assert losses[-1] < losses[0], losses
print("p15 ok: in-place EMA of the bases buffer before backward is harmless")
