"""
expect: GL002 hand_utils.py:43, GL003 hand_trainer.py:37, GL002 hand_trainer.py:33, GL003 hand_trainer.py:39
dynamic: confirm
source: https://github.com/HATAEWOOK/sensor-fusion-gesture/blob/bc40d99ae11a4125dd3695392f6671ff8ec96217/pretrain_depth.py

Hand pose estimation from depth images with a MANO-style hand model. The regressor
predicts joint angles, the hand mesh is rendered back to a depth map and compared with
the input (self-supervision), plus a joint-limit prior and a parameter loss. The renderer
detaches the vertices, works in NumPy and rebuilds the depth map with torch.FloatTensor;
the prior detaches the angles, averages in NumPy and is rebuilt with torch.tensor. Both
loss terms therefore have no history, and `requires_grad_(True)` is switched on to make
backward() stop complaining. They now back-propagate into nothing: only the parameter
loss trains the network. The asserts show the depth and prior terms carry no grad_fn,
that the gradient of the weighted total equals the gradient of the parameter term alone,
and that with depth-only supervision the network does not move at all. The fixed trainer
renders and regularises with torch ops and the depth error falls.
"""
import torch

from hand_trainer import HMR, Trainer
from hand_utils import LinearHand, mesh2depth_torch

torch.manual_seed(0)
torch.set_num_threads(1)

hand = LinearHand()


def make_batch(b=16):
    ang = 0.8 * torch.randn(b, 6)
    with torch.no_grad():
        depth = mesh2depth_torch(hand.forward(ang)).unsqueeze(1)
    return depth, ang


cfg = {'lr': 3e-3, 'depth_loss_weight': 1.0, 'reg_loss_weight': 0.1, 'params_loss_weight': 0.5}
model = HMR()
trainer = Trainer(model, hand, cfg)
depth, ang_gt = make_batch()

depth_loss, reg_loss, param_loss = trainer.losses(depth, ang_gt)
assert depth_loss.grad_fn is None and depth_loss.requires_grad
assert reg_loss.grad_fn is None and reg_loss.requires_grad
total = depth_loss * 1.0 + reg_loss * 0.1 + param_loss * 0.5
w = model.encoder[1].weight
g_total = torch.autograd.grad(total, w, retain_graph=True)[0]
g_param = torch.autograd.grad(param_loss * 0.5, w)[0]
assert torch.equal(g_total, g_param)

# depth-only self-supervision: the default (buggy) trainer never moves the network
cfg_self = dict(cfg, params_loss_weight=0.0, reg_loss_weight=0.0)
train_set = make_batch(32)
torch.manual_seed(1)
model = HMR()
trainer = Trainer(model, hand, cfg_self)
w0 = model.encoder[1].weight.detach().clone()
for it in range(20):
    trainer.train_step(*train_set)
assert torch.equal(w0, model.encoder[1].weight)
print("buggy trainer: weights unchanged after 20 depth-only steps")

torch.manual_seed(1)
model = HMR()
trainer = Trainer(model, hand, cfg_self)
w0 = model.encoder[1].weight.detach().clone()
hist = []
for it in range(200):
    hist.append(trainer.train_step_fixed(*train_set))
first, last = sum(hist[:10]) / 10, sum(hist[-10:]) / 10
print(f"fixed trainer: depth loss {first:.5f} -> {last:.5f}")
assert last < 0.8 * first
assert not torch.equal(w0, model.encoder[1].weight)
