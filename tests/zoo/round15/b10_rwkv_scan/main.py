"""
expect: GL005 rwkv_block.py:26
dynamic: confirm
source: https://github.com/yuunnn-w/RWKV_Pytorch/pull/11

The PR ("for backpropagation, modify the loop assignment") changed the recurrent state update of a
pure-PyTorch RWKV so that training works, noting that the extra copy costs a little forward speed.
This program keeps an RWKV-style time-mixing block in rwkv_block.py whose scan writes the new state
into the state buffer in place (`state[:] = ...`) after the previous state slices were used in
multiplications with the learned decay. Those multiplications saved the slices, so the in-place write
bumps their version and backward raises a RuntimeError mentioning "inplace"; building a new state
tensor each step trains the model.
"""
import torch
import torch.nn.functional as F

from rwkv_block import TinyRWKV

torch.manual_seed(0)


def train_step(model, ids, opt):
    opt.zero_grad()
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
    loss.backward()
    opt.step()
    return loss.detach()


ids = torch.randint(0, 20, (3, 10))

torch.manual_seed(1)
model = TinyRWKV()
with torch.no_grad():
    inference_logits = model(ids)   # the in-place scan is fine when nothing is recorded
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
try:
    train_step(model, ids, opt)
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "inplace" in str(err), err

torch.manual_seed(1)
functional = TinyRWKV(write_state_in_place=False)
with torch.no_grad():
    assert torch.allclose(functional(ids), inference_logits, atol=1e-6)
opt2 = torch.optim.Adam(functional.parameters(), lr=1e-2)
d0 = functional.mix.time_decay.detach().clone()
train_step(functional, ids, opt2)
assert not torch.equal(d0, functional.mix.time_decay.detach())
print("ok: in-place state write inside the scan breaks backward")
