"""
expect: GL001 meta.py:37
dynamic: confirm
source: kinds check 43, kind 4

Few-shot sine regression with a first-order meta-learner (meta.py). The learner builds its outer Adam optimizer over
`self.net.parameters()` in __init__; each meta step adapts a deep copy on the support set and then rebinds
`self.net = copy.deepcopy(adapted)` before taking the query-set step with the old outer optimizer. After the first
rebinding the optimizer still holds the original module's tensors, so the query loss backpropagates into the new
module and the step moves nothing. The asserts show that after meta-training the learner's module has query
gradients while none of the optimizer's tensors is one of its parameters or has a gradient, that one more outer
step leaves the module unchanged, and that an optimizer rebuilt over the new module's parameters (the intended
wiring) does move it.
"""
import math

import torch

from meta import FirstOrderLearner, SineNet

torch.manual_seed(7)


def sample_task(n=10):
    amp = 0.1 + 4.9 * torch.rand(1)
    phase = math.pi * torch.rand(1)
    xs = 10 * torch.rand(n, 1) - 5
    xq = 10 * torch.rand(n, 1) - 5
    return (xs, amp * torch.sin(xs + phase)), (xq, amp * torch.sin(xq + phase))


def snapshot(module):
    return [p.detach().clone() for p in module.parameters()]


def main():
    learner = FirstOrderLearner(SineNet())
    for _ in range(30):
        support, query = sample_task()
        learner.meta_step(support, query)

    net_params = list(learner.net.parameters())
    opt_params = [p for g in learner.outer_opt.param_groups for p in g["params"]]
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net_params)
    assert not any(q is p for q in opt_params for p in net_params)
    assert all(q.grad is None for q in opt_params)

    before = snapshot(learner.net)
    learner.outer_opt.step()
    assert all(torch.equal(a, p.detach()) for a, p in zip(before, learner.net.parameters()))

    # the intended wiring: an optimizer over the module the learner now holds
    rebuilt = torch.optim.Adam(learner.net.parameters(), lr=1e-2)
    rebuilt.step()
    assert all(not torch.equal(a, p.detach()) for a, p in zip(before, learner.net.parameters()))
    print("meta-learner: 30 meta steps done")


if __name__ == "__main__":
    main()
