"""
expect: GL004 learner.py:40
dynamic: confirm
source: https://github.com/yangsenius/learning-to-learn-by-pytorch/blob/HEAD/project/learner.py

The code: a "learning to learn" re-implementation unrolls an LSTM optimizer on
a quadratic. Each unroll step calls `loss.backward(retain_graph=True)` to read
`x.grad`, but `x = x + update` carries the whole history of earlier steps
(and of the LSTM) into the next loss, so every step's backward walks back
through all earlier steps again (quadratic work), and it also dumps gradients
into the LSTM optimizer's parameters before the meta backward. The asserts
count how often the first step's graph is traversed (once per later step),
show the LSTM grads are polluted before meta-backward, and that the meta
gradient differs from a fixed unroll that reads grads with autograd.grad.
"""
import torch

from learner import Learner, LSTMOptimizer

torch.manual_seed(0)
torch.set_num_threads(1)

opt_net = LSTMOptimizer()
meta_opt = torch.optim.Adam(opt_net.parameters(), lr=1e-2)
learner = Learner(opt_net, steps=6)

visits = {}


def watch(i, update):
    def hook(g):
        visits[i] = visits.get(i, 0) + 1
    update.register_hook(hook)


learner.on_update = watch
meta_opt.zero_grad()
global_loss = learner.unroll()

# before the meta backward, the LSTM already holds gradient from the inner backwards
polluted = sum(p.grad.abs().sum().item() for p in opt_net.parameters() if p.grad is not None)
assert polluted > 0

# the step-0 update was traversed by every later inner backward (5 of them)
assert visits[0] == learner.steps - 1, visits
assert visits[learner.steps - 2] == 1

global_loss.backward()
buggy = [p.grad.clone() for p in opt_net.parameters()]

# fixed unroll: inner grads read without touching the LSTM's .grad
opt_net.zero_grad()
learner.on_update = None
learner.x0.grad = None
learner.unroll_fixed().backward()
fixed = [p.grad.clone() for p in opt_net.parameters()]
diff = sum((a - b).abs().sum().item() for a, b in zip(buggy, fixed))
assert diff > 1e-4, diff
print("ok: retained unroll graph re-walked", visits, "meta grad diff", diff)
