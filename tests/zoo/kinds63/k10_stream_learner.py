"""
expect: GL004 54
dynamic: confirm
source: none, invented

An online learner for a drifting stream of digit-like feature vectors. `StreamLearner.observe` runs the
network on the incoming batch, appends the logits to `self.outputs` and the labels to `self.labels`, and then
backpropagates the mean cross-entropy over *everything in the list* with `retain_graph=True` before stepping
the optimizer -- the author's idea of "rehearsing" earlier batches. The list is never emptied, so from the
second call on the loss reaches into graphs built on earlier calls: those graphs are rebuilt nowhere, their
saved weights were updated in place by the previous `step()`, and the retained graph keeps growing with every
call. The asserts catch the "modified by an inplace operation" error on the second call; with
`rehearse_from_inputs=True` the learner keeps the inputs instead, re-runs the network on them each call, and
trains without error to good accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEATS, N_CLASSES = 20, 5
centers = torch.randn(N_CLASSES, N_FEATS) * 2


def stream_batch(n=32):
    y = torch.randint(0, N_CLASSES, (n,))
    return centers[y] + torch.randn(n, N_FEATS), y


class StreamLearner:
    def __init__(self, rehearse_from_inputs=False):
        self.net = nn.Sequential(nn.Linear(N_FEATS, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
        self.optimizer = torch.optim.SGD(self.net.parameters(), lr=0.05, momentum=0.9)
        self.outputs, self.labels, self.inputs = [], [], []
        self.rehearse_from_inputs = rehearse_from_inputs

    def observe(self, x, y):
        self.net.train()
        if self.rehearse_from_inputs:
            self.inputs.append(x)
            self.labels.append(y)
            recent = list(zip(self.inputs, self.labels))[-8:]
            loss = sum(F.cross_entropy(self.net(xi), yi) for xi, yi in recent) / len(recent)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item()
        self.outputs.append(self.net(x))
        self.labels.append(y)
        loss = torch.stack([F.cross_entropy(o, t) for o, t in zip(self.outputs, self.labels)]).mean()
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def accuracy(self, n=1000):
        x, y = stream_batch(n)
        return (self.net(x).argmax(1) == y).float().mean().item()


learner = StreamLearner()
learner.observe(*stream_batch())
assert len(learner.outputs) == 1
try:
    learner.observe(*stream_batch())
    error = None
except RuntimeError as e:
    error = str(e)
assert error is not None and "modified by an inplace operation" in error, error

learner = StreamLearner(rehearse_from_inputs=True)
for _ in range(50):
    learner.observe(*stream_batch())
acc = learner.accuracy()
assert acc > 0.9, acc
print(f"ok: kept logits hit the in-place check on call 2 (as claimed); re-running stored inputs reaches accuracy {acc:.2f}")
