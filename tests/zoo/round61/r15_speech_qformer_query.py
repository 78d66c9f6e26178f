"""
expect: GL001 57
dynamic: confirm
source: https://github.com/huggingface/transformers/pull/38833

The Granite Speech model in transformers bridges its speech encoder to the LLM with a
windowed Q-Former projector: the encoder output is cut into fixed windows, a set of
learned query vectors (an nn.Parameter) cross-attends to every window, and a linear
layer maps the query outputs to the LLM width. The projector passed the queries to
the Q-Former as `self.query.data`, i.e. a view cut from the autograd record, so while
the attention and linear layers trained, the learned queries never received a
gradient and stayed at their random initialization; PR 38833 passes the parameter
itself. This reduction uses a one-layer cross-attention "Q-Former" over fake
filterbank-encoder frames with a regression target: with the `.data` version the
query parameter has grad None and is unchanged after several Adam steps while the
other weights move; passing the parameter gives it a non-zero gradient and it trains.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyQFormer(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.cross = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, query_embeds, encoder_hidden_states):
        q = query_embeds.expand(encoder_hidden_states.size(0), -1, -1)
        attn, _ = self.cross(q, encoder_hidden_states, encoder_hidden_states)
        h = self.norm(q + attn)
        return h + self.ffn(h)


class WindowQFormerProjector(nn.Module):
    def __init__(self, dim=16, llm_dim=24, window=8, downsample=4, detach_queries=True):
        super().__init__()
        self.window, self.ds = window, downsample
        self.query = nn.Parameter(torch.empty(1, window // downsample, dim))
        nn.init.normal_(self.query, std=1.0)
        self.qformer = TinyQFormer(dim)
        self.linear = nn.Linear(dim, llm_dim)
        self.detach_queries = detach_queries

    def forward(self, x):
        b, t, d = x.shape
        nblocks = math.ceil(t / self.window)
        x = F.pad(x, (0, 0, 0, nblocks * self.window - t))
        x = x.view(b * nblocks, self.window, d)
        queries = self.query.data if self.detach_queries else self.query
        out = self.qformer(queries, x)
        return self.linear(out.reshape(b, nblocks * self.window // self.ds, -1))


def train(detach_queries, steps=15):
    torch.manual_seed(0)
    proj = WindowQFormerProjector(detach_queries=detach_queries)
    opt = torch.optim.Adam(proj.parameters(), lr=1e-2)
    q0 = proj.query.detach().clone()
    lin0 = proj.linear.weight.detach().clone()
    enc = torch.randn(3, 29, 16)                 # speech-encoder frames (29 -> padded to 32)
    target = torch.randn(3, 8, 24)               # what the LLM side "wants"
    for _ in range(steps):
        loss = F.mse_loss(proj(enc), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return proj, q0, lin0


def main():
    proj, q0, lin0 = train(detach_queries=True)
    assert proj.query.grad is None, "queries passed via .data get no gradient"
    assert torch.equal(proj.query.detach(), q0), "queries stay at their initialization"
    assert not torch.equal(proj.linear.weight.detach(), lin0), "the rest of the projector trains"

    proj, q0, _ = train(detach_queries=False)
    assert proj.query.grad is not None and proj.query.grad.abs().sum() > 0
    assert not torch.equal(proj.query.detach(), q0)

    print("query via .data: frozen at init; query as parameter: trained")


if __name__ == "__main__":
    main()
