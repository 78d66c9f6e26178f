"""
expect: GL003 model.py:38
dynamic: confirm
source: https://github.com/Hangwei12358/cross-person-HAR/issues/3

In a cross-person human-activity-recognition model the adversarial loss
(loss_function_false) is built from classifier outputs computed inside a torch.no_grad()
block; the resulting loss had no grad_fn, and the code sets loss.requires_grad = True so
backward() runs. A reader asked how the adversarial loss can update anything. This program
trains the model with that loss on random sensor windows. The asserts show every parameter
keeps grad None and is bit-identical after several Adam steps, while the same loss built
without the no_grad block does move the encoder.
"""
import copy

import torch

from model import DisentangledHAR

torch.manual_seed(0)
torch.set_num_threads(1)
args = {"weight_true": 1.0, "weight_false": 0.5}

x = torch.randn(32, 3, 50)                 # 32 windows, 3-axis accelerometer, 50 samples
d = torch.randint(0, 4, (32,))             # subject (domain) ids
y = torch.randint(0, 5, (32,))             # activity labels

model = DisentangledHAR()
before = copy.deepcopy(model.state_dict())
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(5):
    opt.zero_grad()
    loss = model.loss_function_false(args, d, x, y)
    loss.backward()                        # no error thanks to requires_grad = True
    opt.step()

assert all(p.grad is None for p in model.parameters()), "no parameter received a gradient"
for name, tensor in model.state_dict().items():
    assert torch.equal(tensor, before[name]), f"{name} was not updated at all"


class DisentangledHARFixed(DisentangledHAR):
    def classifier(self, x):
        zd, zy = self.latents(x)
        return self.head_d(zd), self.head_y(zy), self.head_d_false(zy), self.head_y_false(zd)

    def loss_function_false(self, args, d, x, y=None):
        p_d, p_y, p_df, p_yf = self.classifier(x)
        ce = torch.nn.functional.cross_entropy
        true = args["weight_true"] * (ce(p_d, d, reduction="sum") + ce(p_y, y, reduction="sum"))
        false = args["weight_false"] * (ce(p_df, d, reduction="sum") + ce(p_yf, y, reduction="sum"))
        return true - false


fixed = DisentangledHARFixed()
fixed.load_state_dict(before)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
opt.zero_grad()
fixed.loss_function_false(args, d, x, y).backward()
opt.step()
assert not torch.equal(fixed.encoder[0].weight, before["encoder.0.weight"]), "fixed loss trains"
print("ok: adversarial HAR loss backpropagates into nothing; parameters unchanged")
