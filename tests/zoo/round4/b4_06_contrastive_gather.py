"""expect: GL001 19
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/92586

SimCLR-style training where the projected embeddings of both views are first
passed through a "gather across workers" helper (single-process fallback here)
before the NT-Xent loss. The helper copies the embeddings with `.detach()`, and
because backward then complained that nothing required grad, it switches
`requires_grad = True` on the copy. That only turns the copy into a fresh leaf:
backward succeeds silently, the gradient stops at the gathered leaf, and neither
the encoder nor the projection head receive any gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gather_embeddings(z, world_size=1):
    shards = [z.detach().clone() for _ in range(world_size)]
    gathered = torch.cat(shards, dim=0)
    gathered.requires_grad = True
    return gathered


def nt_xent(za, zb, temperature=0.5):
    z = F.normalize(torch.cat([za, zb], dim=0), dim=1)
    sim = z @ z.t() / temperature
    n = za.shape[0]
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


class SimCLR(nn.Module):
    def __init__(self, in_dim=10, feat_dim=16, proj_dim=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))

    def forward(self, x):
        return self.projector(self.encoder(x))


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    model = SimCLR()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(8, 10)
    w0 = model.encoder[0].weight.detach().clone()

    for _ in range(5):
        za = gather_embeddings(model(augment(data)))
        zb = gather_embeddings(model(augment(data)))
        loss = nt_xent(za, zb)
        opt.zero_grad()
        loss.backward()
        opt.step()

    assert za.grad is not None
    assert model.encoder[0].weight.grad is None
    assert model.projector[2].weight.grad is None
    assert torch.equal(model.encoder[0].weight.detach(), w0)
    print("contrastive loss backpropagated into a fresh leaf, encoder untouched")


if __name__ == "__main__":
    main()
