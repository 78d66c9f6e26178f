"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 6 (written for this check)

A node classifier computes a saliency map by passing the input node features
through `fresh_leaf` (detach, clone, set requires_grad) and taking the gradient
of the logits with respect to that leaf; training then uses a fresh forward on
the raw features. The asserts show the saliency is nonzero and every model
parameter receives a gradient from the training loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(11)


def fresh_leaf(z):
    out = z.detach().clone()
    out.requires_grad = True
    return out


class GCN(nn.Module):
    def __init__(self, d_in=5, d_hid=16, n_cls=3):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_in, d_hid), nn.Linear(d_hid, n_cls)

    def forward(self, x, adj):
        h = torch.relu(adj @ self.l1(x))
        return adj @ self.l2(h)


n = 12
adj = (torch.rand(n, n) < 0.3).float() + torch.eye(n)
adj = adj / adj.sum(1, keepdim=True)
feats, labels = torch.randn(n, 5), torch.randint(0, 3, (n,))
model = GCN()

probe = fresh_leaf(feats)
logits = model(probe, adj)
(saliency,) = torch.autograd.grad(logits.gather(1, labels[:, None]).sum(), probe)
assert saliency.abs().sum() > 0

loss = nn.functional.cross_entropy(model(feats, adj), labels)
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
print("ok: saliency from a fresh leaf, model trained on a fresh forward")
