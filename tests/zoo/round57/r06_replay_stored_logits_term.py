"""
expect: GL001 92
dynamic: confirm
source: https://github.com/HHwangqiang306/UER1/blob/a18e427a79ff670ee8dfbf1fb9199f054c3219f6/models/cer.py

A rehearsal method for continual learning in the DER++ family. The buffer stores
examples, labels and the network's logits at insertion time (`logits=outputs1.data`,
the usual dark-experience-replay target). The observe step then adds three replay
terms: smooth-L1 between fresh outputs and stored logits (fine: the stored logits are a
fixed target), cross-entropy on fresh outputs for buffer labels (fine), and
`gamma * CE(buf_logits, buf_labels)`, a cross-entropy whose *prediction* is the stored,
detached logits. That third term is built only from values cut from the graph when they
were stored, so it adds a constant to the loss: gamma changes the printed loss but never
the update. The asserts run the same step with gamma=0 and gamma=5 from identical
states and find identical weights, and show that scoring fresh outputs instead makes
gamma matter.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Buffer:
    def __init__(self, size):
        self.size = size
        self.seen = 0
        self.examples = self.labels = self.logits = None

    def is_empty(self):
        return self.seen == 0

    def add_data(self, examples, labels, logits):
        if self.examples is None:
            self.examples = torch.zeros(self.size, *examples.shape[1:])
            self.labels = torch.zeros(self.size, dtype=torch.long)
            self.logits = torch.zeros(self.size, *logits.shape[1:])
        for i in range(examples.shape[0]):
            j = self.seen if self.seen < self.size else int(torch.randint(0, self.seen + 1, (1,)))
            if j < self.size:
                self.examples[j] = examples[i]
                self.labels[j] = labels[i]
                self.logits[j] = logits[i]
            self.seen += 1

    def get_data(self, n, generator):
        filled = min(self.seen, self.size)
        idx = torch.randperm(filled, generator=generator)[:n]
        return self.examples[idx], self.labels[idx], self.logits[idx]


class CER:
    def __init__(self, net, alpha=0.1, beta=0.5, gamma=1.0, buffer_size=20, minibatch=8, fresh_third=False):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=0.1)
        self.buffer = Buffer(buffer_size)
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.minibatch = minibatch
        self.fresh_third = fresh_third

    def observe(self, inputs, labels, not_aug_inputs, generator):
        self.opt.zero_grad()
        outputs1 = self.net(inputs)
        outputs2 = self.net(not_aug_inputs)
        loss_scores = 0.5 * F.cross_entropy(outputs1, labels, reduction="none") \
            + 0.5 * F.cross_entropy(outputs2, labels, reduction="none")
        loss = loss_scores.mean()

        if not self.buffer.is_empty():
            buf_inputs, _, buf_logits = self.buffer.get_data(self.minibatch, generator)
            buf_outputs = self.net(buf_inputs)
            loss = loss + self.alpha * F.smooth_l1_loss(buf_outputs, buf_logits)

            buf_inputs, buf_labels, _ = self.buffer.get_data(self.minibatch, generator)
            buf_outputs = self.net(buf_inputs)
            loss = loss + self.beta * F.cross_entropy(buf_outputs, buf_labels)

            buf_inputs, buf_labels, buf_logits = self.buffer.get_data(self.minibatch, generator)
            if self.fresh_third:
                loss = loss + self.gamma * F.cross_entropy(self.net(buf_inputs), buf_labels)
            else:
                loss = loss + self.gamma * F.cross_entropy(buf_logits, buf_labels)

        loss.backward()
        self.opt.step()
        self.buffer.add_data(examples=not_aug_inputs,
                             labels=labels,
                             logits=outputs1.data)
        return loss.item()


def stream(n_batches, seed):
    g = torch.Generator().manual_seed(seed)
    for t in range(n_batches):
        x = torch.randn(6, 5, generator=g) + (t // 3)
        y = (x[:, 0] > (t // 3)).long() + 2 * (t // 3)
        yield x + 0.05 * torch.randn(6, 5, generator=g), y, x


def warm_learner(fresh_third=False):
    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 6))
    learner = CER(net, fresh_third=fresh_third)
    g = torch.Generator().manual_seed(4)
    for x, y, raw in stream(6, seed=5):
        learner.observe(x, y, raw, g)
    return learner


def one_step(learner, gamma):
    learner = copy.deepcopy(learner)
    learner.gamma = gamma
    x, y, raw = next(stream(7, seed=8))
    loss = learner.observe(x, y, raw, torch.Generator().manual_seed(9))
    return loss, torch.cat([p.detach().flatten() for p in learner.net.parameters()])


base = warm_learner()
loss0, w0 = one_step(base, gamma=0.0)
loss5, w5 = one_step(base, gamma=5.0)
assert abs(loss5 - loss0) > 1e-3, (loss0, loss5)      # the term shows up in the logged loss...
assert torch.equal(w0, w5), "gamma changed the update"  # ...but never in the weights

fixed = warm_learner(fresh_third=True)
_, f0 = one_step(fixed, gamma=0.0)
_, f5 = one_step(fixed, gamma=5.0)
gap = (f5 - f0).abs().max().item()
assert gap > 1e-6, gap
print("r06 ok: stored-logit CE changes loss by %.3f but not the weights; fresh outputs: %.2e" % (loss5 - loss0, gap))
