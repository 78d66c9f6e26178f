"""
expect: GL001 prompt.py:19
dynamic: confirm
source: https://github.com/va1shn9v/PromptIR/issues/6

PromptIR (all-in-one image restoration) conditions its decoder on learned "prompt"
components: a bank `prompt_param` (an nn.Parameter) is mixed with weights predicted
from the features, resized and convolved, and concatenated back into the decoder. In
the reported revision the forward pass reads the bank as `self.prompt_param.data`, so
the mixed prompt is built from a tensor with no history: the mixing weights and the
conv still learn, but the prompt bank itself never gets a gradient and stays at its
random initialisation for the whole training run (the issue: "since only
self.prompt_param.data is used in forward, self.prompt_param is not updating"). This
copy keeps the block in prompt.py and trains a tiny denoiser on random 16x16 images;
the asserts show `prompt_param.grad is None` after every backward and the bank is
bit-identical after training while the other parts of the block do train, and that a
block whose forward uses the parameter itself trains the bank as well.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from prompt import PromptGenBlock

torch.manual_seed(0)
torch.set_num_threads(1)


class FixedPromptGenBlock(PromptGenBlock):
    def forward(self, x):
        B, C, H, W = x.shape
        prompt_weights = F.softmax(self.linear_layer(x.mean(dim=(-2, -1))), dim=1)
        prompt = prompt_weights[:, :, None, None, None] * self.prompt_param.repeat(B, 1, 1, 1, 1)
        prompt = F.interpolate(prompt.sum(dim=1), (H, W), mode="bilinear")
        return self.conv3x3(prompt)


class TinyRestorer(nn.Module):
    def __init__(self, block_cls):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.GELU())
        self.prompt = block_cls(prompt_dim=8, prompt_len=3, prompt_size=4, lin_dim=16)
        self.dec = nn.Conv2d(16 + 8, 3, 3, padding=1)

    def forward(self, x):
        f = self.enc(x)
        f = torch.cat([f, self.prompt(f)], 1)
        return self.dec(f) + x


def train(block_cls, steps=30):
    model = TinyRestorer(block_cls)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    bank0 = model.prompt.prompt_param.detach().clone()
    mix0 = model.prompt.linear_layer.weight.detach().clone()
    bank_grads = []
    for _ in range(steps):
        clean = torch.rand(4, 3, 16, 16)
        noisy = clean + 0.2 * torch.randn_like(clean)
        loss = F.l1_loss(model(noisy), clean)
        opt.zero_grad()
        loss.backward()
        bank_grads.append(model.prompt.prompt_param.grad)
        opt.step()
    return model, bank0, mix0, bank_grads


if __name__ == "__main__":
    model, bank0, mix0, grads = train(PromptGenBlock)
    assert all(g is None for g in grads)
    assert torch.equal(model.prompt.prompt_param, bank0)
    assert not torch.equal(model.prompt.linear_layer.weight, mix0)

    model, bank0, mix0, grads = train(FixedPromptGenBlock)
    assert all(g is not None for g in grads) and grads[0].abs().sum() > 0
    assert not torch.equal(model.prompt.prompt_param, bank0)
    print("ok: the prompt bank read through .data never trains; reading the Parameter does")
