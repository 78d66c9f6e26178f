"""
expect: GL005 centre_loss.py:32
dynamic: confirm
source: none, invented

Trains a small embedding classifier with cross-entropy plus a centre loss whose
centres live in CentreLoss (centre_loss.py) with their own optimizer. The loop
calls centre_loss.update_centres() (backward on the stored centre loss, then a
step of the centre optimizer) before total.backward(), but total still includes
that centre loss, whose graph saved the old centres; the in-place step makes the
total backward raise "modified by an inplace operation".
"""
import torch
from torch import nn

from centre_loss import CentreLoss

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
head = nn.Linear(4, 3)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)
centre_loss = CentreLoss(num_classes=3, dim=4)

inputs = torch.randn(96, 10)
labels = torch.randint(0, 3, (96,))

failed = False
for step in range(3):
    optimizer.zero_grad()
    features = encoder(inputs)
    total = nn.functional.cross_entropy(head(features), labels) + 0.1 * centre_loss(features, labels)
    centre_loss.update_centres()
    try:
        total.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
        failed = True
        break
    optimizer.step()

assert failed
print("centre step broke the pending backward: bug reproduced")
