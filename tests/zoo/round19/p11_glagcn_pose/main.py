"""
expect: GL005 model.py:56
dynamic: confirm
source: https://github.com/bruceyo/GLA-GCN/issues/5

Training GLA-GCN (graph-attention + temporal-conv 2D-to-3D pose lifting) failed with "one of
the variables needed for gradient computation has been modified by an inplace operation"; the
fix that worked for the commenters was to return `self.relu(x).clone()` from the block. The
block's ReLU output is saved by ReluBackward for the backward pass, and the caller then adds the
residual into that very tensor in place. This program rebuilds the network (model.py) on random
2D skeleton sequences: backward raises the in-place error (caught and asserted; it names the
ReLU output), and with the cloned output the same training step runs and the weights move.
"""
import torch
import torch.nn.functional as F
from model import GLAGCN, NUM_JOINTS

torch.manual_seed(0)
pose2d = torch.randn(4, 2, 9, NUM_JOINTS)
pose3d = torch.randn(4, 3, 9, NUM_JOINTS)

model = GLAGCN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = F.mse_loss(model(pose2d), pose3d)
opt.zero_grad()
try:
    loss.backward()
    raise AssertionError("expected the in-place residual add to break backward")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e)
    assert "output 0 of Relu" in str(e)

fixed = GLAGCN(clone_outputs=True)
fixed.load_state_dict(model.state_dict())
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
w0 = fixed.blocks[0].gcn.attn.detach().clone()
losses = []
for _ in range(10):
    loss = F.mse_loss(fixed(pose2d), pose3d)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert not torch.equal(fixed.blocks[0].gcn.attn, w0)
assert losses[-1] < losses[0]
print("p11 ok: in-place residual add on the saved ReLU output breaks backward")
