"""
expect: none
dynamic: dismiss
source: none, invented

Self-distillation for a small audio classifier: a clean view and an augmented (noisy)
view of each clip are embedded, and a helper `distill_term(net, ...)` that receives the
whole model builds a target by projecting the clean embedding with `net.head_proj` and
detaching it. The other side of the term runs the noisy embedding through `net.adapter`
and then the same `net.head_proj`, attached, so the projection receives gradient through
the prediction side even though the target copy is frozen. This is the usual BYOL/SimSiam
stop-gradient, not a bug. The asserts show `head_proj`, `adapter` and the frontend all get
non-zero gradients and change after a few optimizer steps.
"""
import torch
import torch.nn.functional as F

from model import AudioEncoder

torch.manual_seed(0)
torch.set_num_threads(1)


def distill_term(net, noisy_h, clean_h):
    target = net.head_proj(clean_h).detach()
    pred = net.head_proj(net.adapter(noisy_h))
    return 1 - F.cosine_similarity(pred, target, dim=-1).mean()


model = AudioEncoder()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
proj_before = model.head_proj.weight.detach().clone()
adapter_before = model.adapter.weight.detach().clone()

for step in range(4):
    mel = torch.randn(6, 10, 20)
    labels = torch.randint(0, 5, (6,))
    logits, clean_h = model(mel)
    noisy_h = model.embed(mel + 0.3 * torch.randn_like(mel))
    loss = F.cross_entropy(logits, labels) + 0.5 * distill_term(model, noisy_h, clean_h)
    opt.zero_grad()
    loss.backward()
    assert model.head_proj.weight.grad is not None
    assert model.head_proj.weight.grad.abs().sum() > 0
    assert model.adapter.weight.grad.abs().sum() > 0
    assert model.frontend[0].weight.grad.abs().sum() > 0
    opt.step()

assert not torch.equal(model.head_proj.weight, proj_before)
assert not torch.equal(model.adapter.weight, adapter_before)
print("ok")
