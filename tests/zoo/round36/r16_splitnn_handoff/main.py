"""
expect: none
dynamic: dismiss
source: https://github.com/Koukyosyumei/AIJack/blob/HEAD/src/aijack/collaborative/splitnn/client.py

Look-alike from split learning: the client cuts the graph on purpose at the cut layer
(`out.detach().requires_grad_()`) so only the "smashed" activations go to the server, the
server backpropagates its half and returns smashed.grad, and the client finishes the
backward with `cut_output.backward(grad)`. The detach plus requires_grad_ pair looks like
the "fix" for a lost graph, but the gradient is carried across by hand. The asserts show
that one split step gives the client and server exactly the gradients (and updates) of
the same network trained end to end, and that the client's weights move.
"""
import copy

import torch
import torch.nn.functional as F

from parties import SplitClient, SplitServer, make_models

torch.set_num_threads(1)

bottom, top = make_models()
ref_bottom, ref_top = copy.deepcopy(bottom), copy.deepcopy(top)
client, server = SplitClient(bottom), SplitServer(top)
ref_opt = torch.optim.SGD(list(ref_bottom.parameters()) + list(ref_top.parameters()), lr=0.1)

torch.manual_seed(1)
X = torch.randn(64, 20)
y = torch.randint(0, 4, (64,))
start = [p.detach().clone() for p in bottom.parameters()]

for step in range(4):
    xb, yb = X[step * 16:(step + 1) * 16], y[step * 16:(step + 1) * 16]
    smashed = client.upload(xb)
    loss, grad_back = server.train_step(smashed, yb)
    client.download(grad_back)

    ref_opt.zero_grad()
    ref_loss = F.cross_entropy(ref_top(ref_bottom(xb)), yb)
    ref_loss.backward()
    for p, q in zip(bottom.parameters(), ref_bottom.parameters()):
        assert p.grad is not None and torch.allclose(p.grad, q.grad, atol=1e-6)
    for p, q in zip(top.parameters(), ref_top.parameters()):
        assert torch.allclose(p.grad, q.grad, atol=1e-6)
    ref_opt.step()
    assert abs(loss - ref_loss.item()) < 1e-5

for p, p0, q in zip(bottom.parameters(), start, ref_bottom.parameters()):
    assert not torch.equal(p, p0)
    assert torch.allclose(p, q, atol=1e-6)
print("split client/server handoff matches end-to-end training; client weights train")
