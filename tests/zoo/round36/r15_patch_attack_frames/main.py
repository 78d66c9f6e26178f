"""
expect: GL004 patch_attack.py:28
dynamic: confirm
source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/2220

The report: the PyTorch adversarial-patch attack calls loss.backward(retain_graph=True) on
every iteration, and RAM use grows with the number of frames and iterations until a
tracking defence can only afford a few frames. In this attack class the patched frames are
stored on self and re-patched each iteration, so every new loss hangs on the previous
iterations' graph and retain_graph keeps all of it alive. The asserts show the graph
reachable from the loss grows every iteration and that dropping retain_graph makes the
second backward hit the freed first-iteration graph, while the fixed class (re-patching
the clean frames) keeps a constant graph and needs no retain_graph.
"""
import torch
import torch.nn as nn

from patch_attack import TrackerPatchAttack

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class FixedAttack(TrackerPatchAttack):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self._clean = self._frames.clone()

    def _train_step(self):
        frames = self._apply_patch(self._clean)
        loss = -nn.functional.cross_entropy(self.model(frames), self.labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            self.patch.clamp_(0.0, 1.0)
        return loss


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                      nn.Flatten(), nn.Linear(32, 5))
for p in model.parameters():
    p.requires_grad_(False)
frames = torch.rand(12, 3, 16, 16)
labels = torch.randint(0, 5, (12,))

attack = TrackerPatchAttack(model, frames, labels)
sizes = [graph_size(l) for l in attack.generate(6)]
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

fixed = FixedAttack(model, frames, labels)
fsizes = [graph_size(l) for l in fixed.generate(6)]
assert len(set(fsizes)) == 1, fsizes
assert sizes[-1] > fsizes[-1]

# the new loss really reaches the old iterations: without retain_graph it fails
class NoRetain(TrackerPatchAttack):
    def _train_step(self):
        self._frames = self._apply_patch(self._frames)
        loss = -nn.functional.cross_entropy(self.model(self._frames), self.labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss


try:
    NoRetain(model, frames, labels).generate(2)
    raised = False
except RuntimeError as e:
    raised = "second time" in str(e)
assert raised
print("graph nodes per iteration (retain_graph attack):", sizes, "fixed:", fsizes)
