"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/transformers/issues/17909

The report quotes the wav2vec2 feature encoder line hidden_states.requires_grad
= True, which fails when a user's own model feeds it a non-leaf tensor. In
the library the line is deliberate: the raw waveform slice is a fresh leaf,
and reentrant activation checkpointing only records the conv weights if an
input requires grad. Here FeatureEncoder keeps that line (waveform fed as a
leaf). The asserts show that with checkpointing the conv weights get exactly
the gradients of a plain forward, that dropping the line leaves them None,
and that a frozen encoder skips it while the CTC head still trains.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from feature_encoder import FeatureEncoder

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyCTC(nn.Module):
    def __init__(self, set_input_grad=True):
        super().__init__()
        self.features = FeatureEncoder(set_input_grad)
        self.proj = nn.Linear(16, 6)       # 5 symbols + blank

    def forward(self, wav):
        return self.proj(self.features(wav).transpose(1, 2)).log_softmax(-1)


wav = torch.randn(2, 400)
targets = torch.tensor([[1, 2, 3, 1], [4, 4, 2, 5]])


def ctc(model):
    logp = model(wav).transpose(0, 1)              # (T, N, C)
    T = logp.shape[0]
    return F.ctc_loss(logp, targets, torch.full((2,), T), torch.full((2,), 4))


def conv_grads(set_input_grad, ckpt):
    torch.manual_seed(1)
    model = TinyCTC(set_input_grad)
    model.features.gradient_checkpointing = ckpt
    ctc(model).backward()
    return [l.conv.weight.grad for l in model.features.layers]


ref = conv_grads(True, ckpt=False)
with_line = conv_grads(True, ckpt=True)
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(ref, with_line))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    without_line = conv_grads(False, ckpt=True)
assert all(g is None for g in without_line)

frozen = TinyCTC()
frozen.features.freeze()
frozen.features.gradient_checkpointing = True
w0 = frozen.proj.weight.detach().clone()
opt = torch.optim.SGD([p for p in frozen.parameters() if p.requires_grad], lr=0.1)
ctc(frozen).backward()
opt.step()
assert all(l.conv.weight.grad is None for l in frozen.features.layers)
assert not torch.equal(frozen.proj.weight, w0)
print("input-leaf requires_grad: checkpointed conv grads match the plain forward")
