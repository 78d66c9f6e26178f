"""
expect: GL005 variance_model.py:42
dynamic: confirm
source: https://github.com/openvpi/DiffSinger/commit/09743cce64de5e535eaf6f1a79a114b8e1bc5f13

A singing-voice variance model (DiffSinger style) encodes phoneme tokens into a frame condition.
The same condition tensor is handed to a pitch diffusion head, whose 1x1 conv saves its input for
the weight gradient, and is then extended in place with `condition += pitch_embed(pitch)` before it
feeds the variance head. The in-place add bumps the version of the tensor that the conv saved, so
loss.backward() raises "modified by an inplace operation" (the RuntimeError the upstream commit fixed
by cloning and adding out of place). The program catches that error from the original forward and
then trains the out-of-place version for a few steps, checking that the encoder and both heads get
gradients and that the loss goes down.
"""
import torch

from variance_model import VarianceModel, VarianceModelFixed

torch.manual_seed(0)
torch.set_num_threads(1)

B, T = 4, 12
tokens = torch.randint(0, 20, (B, T))
pitch = torch.sin(torch.linspace(0, 3, T)).repeat(B, 1) + 0.1 * torch.randn(B, T)
variances = torch.randn(B, T, 2) * 0.3

model = VarianceModel()
loss = model(tokens, pitch, variances)
try:
    loss.backward()
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace operation" in str(err), err

torch.manual_seed(0)
fixed = VarianceModelFixed()
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
history = []
for step in range(80):
    opt.zero_grad()
    loss = fixed(tokens, pitch, variances)
    loss.backward()
    if step == 0:
        for mod in (fixed.encoder, fixed.pitch_predictor.cond_proj, fixed.pitch_embed):
            assert mod.weight.grad is not None and mod.weight.grad.abs().sum() > 0
    opt.step()
    history.append(loss.item())
first, last = sum(history[:10]) / 10, sum(history[-10:]) / 10
assert last < first, (first, last)
print(f"checked: shared condition edited in place; out-of-place version trains {first:.3f} -> {last:.3f}")
