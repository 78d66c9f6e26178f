"""
expect: GL004 trainer.py:17, GL004 trainer.py:19
dynamic: confirm
source: https://tianqi.csdn.net/68a441aaa6db534ba2c44b9b.html

A multi-task network (shared conv trunk, a segmentation head and a depth head) is trained with one backward
per task loss, each called with retain_graph=True, the pattern the page reports as making memory grow and
every iteration slower. The buffers survive here because the trainer also keeps a running loss tensor for
logging, so every iteration's retained graph hangs off it: the first backward's retained buffers for the
segmentation branch are never traversed again, and the last backward retains the trunk and depth branch. The
asserts walk the graph behind the running loss and add up the bytes of saved tensors that can still be read:
they grow with every iteration, grow more slowly but still grow when only the last retain_graph is dropped,
and stay at zero in the repaired trainer that backpropagates the summed loss once and logs a float.
"""
import torch
import torch.nn as nn

from trainer import FixedMultiTaskTrainer, MultiTaskTrainer

torch.manual_seed(0)
torch.set_num_threads(1)


class SegDepthNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(8, classes, 1)
        self.depth_head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.seg_head(h), self.depth_head(h)


def retained_bytes(tensor):
    if not isinstance(tensor, torch.Tensor) or tensor.grad_fn is None:
        return 0
    seen, stack, total = set(), [tensor.grad_fn], 0
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    value = getattr(node, attr)
                except RuntimeError:
                    continue  # buffer already freed by backward
                if isinstance(value, torch.Tensor):
                    total += value.numel() * value.element_size()
        stack.extend(fn for fn, _ in node.next_functions)
    return total


def run(trainer_cls, steps=5, **kw):
    torch.manual_seed(1)
    model = SegDepthNet()
    trainer = trainer_cls(model, torch.optim.SGD(model.parameters(), lr=0.05), **kw)
    sizes = []
    for _ in range(steps):
        images = torch.randn(2, 3, 12, 12)
        seg = torch.randint(0, 3, (2, 12, 12))
        depth = torch.rand(2, 1, 12, 12)
        running = trainer.step(images, seg, depth)
        sizes.append(retained_bytes(running))
    return sizes


leaky = run(MultiTaskTrainer, keep_last_graph=True)
assert all(b > a for a, b in zip(leaky, leaky[1:])), leaky
assert leaky[-1] >= 4 * leaky[0], leaky

only_last_dropped = run(MultiTaskTrainer, keep_last_graph=False)
assert all(b > a for a, b in zip(only_last_dropped, only_last_dropped[1:])), only_last_dropped
assert only_last_dropped[-1] < leaky[-1], (only_last_dropped, leaky)

fixed = run(FixedMultiTaskTrainer)
assert fixed == [0] * len(fixed), fixed
print("retained bytes per step, retain_graph on both backward calls:", leaky)
