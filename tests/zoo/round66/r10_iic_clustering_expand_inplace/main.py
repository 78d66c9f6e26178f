"""
expect: GL005 iic_loss.py:26, GL005 iic_loss.py:27
dynamic: confirm
source: https://github.com/xu-ji/IIC/issues/27

Deep clustering with Invariant Information Clustering (IIC, a DEC-family method that
maximizes the mutual information between the cluster assignments of two augmented views).
The loss helper (iic_loss.py) builds the joint distribution P over cluster pairs and its
two marginals with `.sum(...).view(...).expand(k, k)`, then guards the logs with in-place
masked writes `p_j[(p_j < EPS).data] = EPS` and `p_i[...] = EPS`. The marginals are expanded
views whose k columns (rows) share one memory cell, and they are graph tensors; as soon as
any cluster is empty (a collapsed over-clustering head, which is what the issue reporter hit
with a small batch) the in-place write hits real elements and autograd refuses it with
"unsupported operation: more than one element of the written-to tensor refers to a single
memory location", so training stops. The program resumes from a head where one of the
over-clustering outputs has collapsed, catches that RuntimeError on the default loss, then
runs the out-of-place variant (`clamp_min`), which backpropagates and raises the mutual
information between the views.
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn
import torch.nn.functional as F

from iic_loss import IID_loss, IID_loss_safe

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="Use of .* on expanded tensors")


class ClusterNetHead(nn.Module):
    def __init__(self, in_dim=2, k=6):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, k)

    def forward(self, x):
        return F.softmax(self.head(self.trunk(x)), dim=1)


def load_collapsed_checkpoint(net, dead_cluster=5):
    with torch.no_grad():
        net.head.weight[dead_cluster].zero_()
        net.head.bias[dead_cluster] = -80.0  # this output never fires any more
    return net


def sample_views(n=128):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]])
    idx = torch.randint(0, 3, (n,))
    x = centers[idx] + 0.3 * torch.randn(n, 2)
    x_tf = x + 0.15 * torch.randn(n, 2)  # augmented view
    return x, x_tf


def mutual_information(net, x, x_tf):
    with torch.no_grad():
        return -IID_loss_safe(net(x), net(x_tf)).item()


def main():
    net = load_collapsed_checkpoint(ClusterNetHead())
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    x, x_tf = sample_views()

    try:
        loss = IID_loss(net(x), net(x_tf))
        loss.backward()
        err = None
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "single memory location" in err, err
    print("default IIC loss failed:", err[:80], "...")

    mi0 = mutual_information(net, x, x_tf)
    for _ in range(150):
        x, x_tf = sample_views()
        opt.zero_grad()
        loss = IID_loss_safe(net(x), net(x_tf))
        loss.backward()
        opt.step()
    x, x_tf = sample_views(512)
    mi1 = mutual_information(net, x, x_tf)
    print("mutual information between views: %.3f -> %.3f (max log 3 = %.3f)" % (mi0, mi1, torch.log(torch.tensor(3.0))))
    assert net.head.weight.grad is not None
    assert mi1 > mi0 + 0.3


if __name__ == "__main__":
    main()
