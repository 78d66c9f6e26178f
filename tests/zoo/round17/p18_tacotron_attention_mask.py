"""
expect: none
dynamic: dismiss
source: https://github.com/r9y9/tacotron_pytorch/issues/16

r9y9/tacotron_pytorch issue #16 ("Alignment mask"): a reader asked whether
`alignment.data.masked_fill_(mask, self.score_mask_value)` in the attention wrapper really masks
the padded encoder steps, or whether it has to be rebuilt as a new Variable; the maintainer replied
that methods ending in "_" are in-place, so it is fine. The edit goes through .data on the raw
attention energies, which no recorded op saved for backward (the projection saved its input, and
softmax saves its own output), and softmax gives masked positions zero gradient anyway. This program
rebuilds the Bahdanau attention of a Tacotron decoder over padded text encodings and asserts that
the .data in-place mask gives exactly the same attention weights and gradients as an out-of-place
masked_fill, never attends to padding, and that the attention module trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BahdanauAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query_layer = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, 1, bias=False)

    def forward(self, query, processed_memory):
        processed_query = self.query_layer(query).unsqueeze(1)
        return self.v(torch.tanh(processed_query + processed_memory)).squeeze(-1)


class AttentionWrapper(nn.Module):
    def __init__(self, dim, data_mask=True):
        super().__init__()
        self.attention_mechanism = BahdanauAttention(dim)
        self.memory_layer = nn.Linear(dim, dim, bias=False)
        self.score_mask_value = -float("inf")
        self.data_mask = data_mask

    def forward(self, query, memory, mask):
        alignment = self.attention_mechanism(query, self.memory_layer(memory))
        if self.data_mask:
            alignment.data.masked_fill_(mask, self.score_mask_value)
        else:
            alignment = alignment.masked_fill(mask, self.score_mask_value)
        alignment = F.softmax(alignment, dim=1)
        context = torch.bmm(alignment.unsqueeze(1), memory).squeeze(1)
        return context, alignment


def run(data_mask, steps=1):
    torch.manual_seed(0)
    attn = AttentionWrapper(16, data_mask=data_mask)
    opt = torch.optim.Adam(attn.parameters(), lr=1e-2)
    gen = torch.Generator().manual_seed(1)
    memory = torch.randn(4, 10, 16, generator=gen)
    lengths = torch.tensor([10, 7, 5, 3])
    mask = torch.arange(10)[None, :] >= lengths[:, None]
    queries = torch.randn(4, 16, generator=gen)
    target = memory[torch.arange(4), lengths - 1]          # learn to attend to the last real token
    for _ in range(steps):
        context, weights = attn(queries, memory, mask)
        loss = F.mse_loss(context, target)
        opt.zero_grad()
        loss.backward()
        grads = [p.grad.clone() for p in attn.parameters()]
        opt.step()
    return weights.detach(), grads, loss.item(), mask


w_data, g_data, _, mask = run(data_mask=True)
w_ref, g_ref, _, _ = run(data_mask=False)
assert torch.allclose(w_data, w_ref) and (w_data[mask] == 0).all()
assert all(torch.allclose(a, b) for a, b in zip(g_data, g_ref))
assert all(g.abs().sum() > 0 for g in g_data)

_, _, first, _ = run(data_mask=True, steps=1)
_, _, last, _ = run(data_mask=True, steps=60)
assert last < 0.7 * first, (first, last)
print("p18 ok: .data.masked_fill_ on attention energies matches the out-of-place mask exactly")
