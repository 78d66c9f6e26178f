"""
expect: none
dynamic: dismiss
source: https://github.com/qilong-zhang/Pytorch_Universal-adversarial-perturbation/blob/85fb4c2236f6e9020dfe33838c1888a7e7895e7a/deepfool.py

A universal adversarial perturbation is built by running DeepFool on each sample it does not yet
fool and projecting the sum back to an L2 ball. Inside DeepFool one forward pass gives all class
scores, and the input gradient of each candidate class is taken by calling
backward(retain_graph=True) on that class's score, clearing x.grad in between. retain_graph is
needed there, since several backward calls go through the same forward graph, and nothing is
carried over: each DeepFool iteration rebuilds x from the accumulated perturbation as a new leaf
and runs a new forward. The asserts check that the per-class gradients equal the rows of the input
Jacobian, that a second backward without retain_graph would fail, that the graph reachable from the
scores has the same size at every DeepFool iteration, and that DeepFool flips the labels and the
universal perturbation fools far more samples than a random
perturbation of the same norm.
"""
import torch
import torch.nn as nn

from deepfool import count_nodes, deepfool

torch.manual_seed(0)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 4))
data = torch.randn(40, 16)

# retain_graph is needed: several class gradients from one forward pass
x = data[0][None].clone().requires_grad_(True)
fs = net(x)
J = torch.autograd.functional.jacobian(lambda v: net(v), x.detach())[0, :, 0]
for k in range(4):
    if x.grad is not None:
        x.grad.zero_()
    fs[0, k].backward(retain_graph=True)
    assert torch.allclose(x.grad[0], J[k], atol=1e-6)
fs2 = net(x)
fs2[0, 0].backward()
try:
    fs2[0, 1].backward()
    raise AssertionError("expected the freed graph to refuse a second backward")
except RuntimeError as err:
    assert "backward through the graph a second time" in str(err)

# DeepFool on single samples: same graph size every iteration, labels flip
flips, all_stats = 0, []
for img in data[:10]:
    stats = []
    r, iters, label, new_label = deepfool(img, net, stats=stats)
    all_stats.append(stats)
    assert len(set(stats)) == 1, stats
    flips += int(new_label != label)
assert flips == 10
assert max(len(s) for s in all_stats) > 1, "some sample needs several DeepFool iterations"


# universal perturbation
def project(v, xi):
    return v * min(1.0, xi / v.norm().item())


xi, v = 1.5, torch.zeros(16)
with torch.no_grad():
    clean = net(data).argmax(1)
for _ in range(5):
    for img in data[torch.randperm(len(data))]:
        with torch.no_grad():
            same = net((img + v)[None]).argmax(1).item() == net(img[None]).argmax(1).item()
        if same:
            dr, iters, _, _ = deepfool(img + v, net)
            if iters < 49:
                v = project(v + dr, xi)
with torch.no_grad():
    fooled = (net(data + v).argmax(1) != clean).float().mean().item()
    rand_v = torch.randn(16)
    rand_v = rand_v * v.norm() / rand_v.norm()
    fooled_rand = (net(data + rand_v).argmax(1) != clean).float().mean().item()
size = count_nodes(net(data[:1]).grad_fn)
print(f"DeepFool flipped {flips}/10; universal perturbation |v|={v.norm():.2f} fools {fooled:.0%} "
      f"(random direction of the same norm {fooled_rand:.0%}); "
      f"graph size per forward {size}")
assert v.norm() <= xi + 1e-5
assert fooled > 0.25 and fooled > fooled_rand + 0.15
