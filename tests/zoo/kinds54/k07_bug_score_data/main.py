"""
expect: GL005 engine.py:6
dynamic: confirm
source: kinds check 54, kind 4

Movie genre tagging: train_one_epoch (engine.py) calls MultiLabelBCE.hit_rate before
backward; hit_rate thresholds the sigmoid output in place through .data, so the BCE and
sigmoid backward use the binarized values: the gradient is silently wrong.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from engine import train_one_epoch
from tagging_loss import MultiLabelBCE

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5), nn.Sigmoid())
ref = copy.deepcopy(net)
feats, labels = torch.randn(64, 20), (torch.rand(64, 5) > 0.5).float()

F.binary_cross_entropy(ref(feats), labels).backward()
g_ref = ref[0].weight.grad.clone()

opt = torch.optim.SGD(net.parameters(), lr=0.0)
# capture the gradient seen by the epoch (lr=0 keeps weights fixed)
train_one_epoch(net, MultiLabelBCE(), opt, [(feats, labels)])
g_bug = net[0].weight.grad
assert not torch.allclose(g_bug, g_ref, atol=1e-6), "gradient should be corrupted"
print("ok: gradient differs from correct one")
