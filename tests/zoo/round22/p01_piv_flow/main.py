"""
expect: GL001 models.py:30
dynamic: confirm
source: https://github.com/erizmr/UnLiteFlowNet-PIV/issues/4

A user of an unsupervised PIV optical-flow network reported that training never
converged; the cause was a `with torch.no_grad():` they had wrapped around the flow
estimators of three modules inside the model's forward. Only the parts outside the
block kept learning, so the loss still moved a little. Here the three pyramid decoders
run under no_grad inside `estimate_flow`, while the encoder and a refinement head stay
on the tape. The asserts show the decoders get no gradient and never change, while a
variant without the block trains them.
"""
import torch
from models import ParticleFlowNet, unsupervised_loss

torch.set_num_threads(1)


class FixedFlowNet(ParticleFlowNet):
    def estimate_flow(self, feats):
        flow = 0
        for dec in self.decoders:
            flow = flow + dec(feats)
        return flow


def make_pair(n=4, size=16):
    img1 = torch.rand(n, 1, size, size)
    img2 = torch.roll(img1, shifts=(1, 1), dims=(2, 3)) + 0.01 * torch.randn(n, 1, size, size)
    return img1, img2


def train(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.decoders.parameters()]
    for _ in range(steps):
        img1, img2 = make_pair()
        loss = unsupervised_loss(img1, img2, model(img1, img2))
        opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in model.decoders.parameters()]
        opt.step()
    moved = any(not torch.equal(b, p) for b, p in zip(before, model.decoders.parameters()))
    return grads, moved, model


torch.manual_seed(0)
grads, moved, buggy = train(ParticleFlowNet())
assert all(g is None for g in grads), "decoders unexpectedly received gradients"
assert not moved, "decoder weights changed although they were cut off"
assert buggy.refine.weight.grad is not None and buggy.encoder[0].weight.grad is not None

torch.manual_seed(0)
grads, moved, _ = train(FixedFlowNet())
assert all(g is not None and g.abs().sum() > 0 for g in grads)
assert moved
print("p01 ok: flow decoders starved by no_grad in estimate_flow")
