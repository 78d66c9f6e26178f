"""
expect: none
dynamic: dismiss
source: https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/16

An issue on a popular Transformer implementation asked whether masking the attention
scores with `attn.data.masked_fill_(attn_mask, -float('inf'))` is correct, since the
edit through `.data` is hidden from autograd. In this spot it is: the scaled scores are
not saved by any backward function (the matmul saves q and k, softmax saves its own
output), so the masked softmax output used in backward is the right one. This program
uses that attention in a small encoder layer with padded batches. The asserts show the
gradients of every parameter match the out-of-place `masked_fill` version exactly and
the loss falls.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class ScaledDotProductAttention(nn.Module):
    def __init__(self, d_model, use_data_edit=True):
        super().__init__()
        self.temper = d_model ** 0.5
        self.use_data_edit = use_data_edit

    def forward(self, q, k, v, attn_mask):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temper
        if self.use_data_edit:
            attn.data.masked_fill_(attn_mask, -float("inf"))
        else:
            attn = attn.masked_fill(attn_mask, -float("inf"))
        attn = F.softmax(attn, dim=-1)
        return torch.bmm(attn, v), attn


class EncoderLayer(nn.Module):
    def __init__(self, d_model=16, use_data_edit=True):
        super().__init__()
        self.w_q, self.w_k, self.w_v = (nn.Linear(d_model, d_model) for _ in range(3))
        self.attention = ScaledDotProductAttention(d_model, use_data_edit)
        self.ffn = nn.Sequential(nn.Linear(d_model, 32), nn.ReLU(), nn.Linear(32, d_model))
        self.cls = nn.Linear(d_model, 2)

    def forward(self, x, pad):
        mask = pad[:, None, :].expand(-1, x.shape[1], -1)
        out, _ = self.attention(self.w_q(x), self.w_k(x), self.w_v(x), mask)
        h = out + self.ffn(out)
        keep = (~pad).float().unsqueeze(-1)
        return self.cls((h * keep).sum(1) / keep.sum(1))


torch.manual_seed(0)
model = EncoderLayer()
twin = copy.deepcopy(model)
twin.attention.use_data_edit = False
x = torch.randn(6, 7, 16)
lengths = torch.tensor([7, 5, 3, 6, 2, 4])
pad = torch.arange(7)[None, :] >= lengths[:, None]
y = torch.randint(0, 2, (6,))

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
opt_t = torch.optim.Adam(twin.parameters(), lr=1e-2)
history = []
for _ in range(30):
    loss = F.cross_entropy(model(x, pad), y)
    loss_t = F.cross_entropy(twin(x, pad), y)
    opt.zero_grad(); opt_t.zero_grad()
    loss.backward(); loss_t.backward()
    for p, q in zip(model.parameters(), twin.parameters()):
        assert p.grad is not None and torch.allclose(p.grad, q.grad, atol=1e-6)
    opt.step(); opt_t.step()
    history.append(loss.item())

assert history[-1] < history[0]
print("p19 ok: masking attention scores through .data gives the same gradients here")
