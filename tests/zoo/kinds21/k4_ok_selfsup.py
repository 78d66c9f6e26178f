"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 4 (written for this check)

Prototype-memory self-supervision (DeepCluster/PCL style): a memory of normalized
prototypes assigns pseudo-labels by sim = z @ protos.t() (which saves the protos
buffer), reads sim only through .max(1) indices, then moves the assigned prototypes
in place (row mul_/add_, then div_) under no_grad. The soft assignment that would
differentiate through sim is behind use_soft_assign=False, and no caller passes it.
The asserts show the step runs, the encoder and classifier get nonzero gradients
from the pseudo-label and instance losses, and the prototypes moved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PrototypeMemory(nn.Module):
    def __init__(self, n_protos, dim, momentum=0.9, temperature=0.1):
        super().__init__()
        self.momentum, self.temperature = momentum, temperature
        self.register_buffer("protos", F.normalize(torch.randn(n_protos, dim), dim=1))

    def forward(self, z, use_soft_assign=False):
        z = F.normalize(z, dim=1)
        sim = z @ self.protos.t()
        labels = sim.max(dim=1)[1]
        if self.training:
            self._momentum_update(z, labels)
        if use_soft_assign:
            return labels, F.softmax(sim / self.temperature, dim=1)
        return labels

    @torch.no_grad()
    def _momentum_update(self, z, labels):
        for k in labels.unique().tolist():
            centre = z[labels == k].mean(0)
            self.protos[k].mul_(self.momentum).add_(centre, alpha=1 - self.momentum)
        self.protos.div_(self.protos.norm(dim=1, keepdim=True))


def augment(x):
    return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)


def selfsup_step(parts, opt, x, tau=0.2):
    encoder, classifier, memory = parts["encoder"], parts["classifier"], parts["memory"]
    opt.zero_grad()
    z1, z2 = encoder(augment(x)), encoder(augment(x))
    pseudo = memory(z1)
    cluster_loss = F.cross_entropy(classifier(z2), pseudo)
    logits = F.normalize(z1, dim=1) @ F.normalize(z2, dim=1).t() / tau
    instance_loss = F.cross_entropy(logits, torch.arange(len(x)))
    loss = cluster_loss + instance_loss
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(10)
    x = torch.randn(64, 20)
    parts = {"encoder": nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 16)),
             "classifier": nn.Linear(16, 8), "memory": PrototypeMemory(8, 16)}
    opt = torch.optim.SGD([p for k in ("encoder", "classifier") for p in parts[k].parameters()],
                          lr=0.05, momentum=0.9)
    protos0 = parts["memory"].protos.clone()
    for _ in range(3):
        selfsup_step(parts, opt, x)
    for key in ("encoder", "classifier"):
        for name, p in parts[key].named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, (key, name)
    assert not torch.equal(protos0, parts["memory"].protos)
    print("ok: sim is read only for indices; the in-place prototype update is safe")
