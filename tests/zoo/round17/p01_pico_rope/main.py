"""
expect: GL001 pico_model.py:17
dynamic: confirm
source: https://github.com/pico-lm/pico-train/pull/27

pico-train's "Bug Fix: Freqs Cis Grad Flow" PR: an earlier commit ("bug fix: setting no torch grad in
rope") had put @torch.no_grad() on RoPE.forward, so the rotated queries and keys left the graph and
the attention query/key projections never received a gradient; the fix moved no_grad onto the
freqs_cis computation only. This program rebuilds a small pico-style decoder (pico_model.py) whose
RoPE.forward carries the decorator, trains it on a copy task, and asserts that q_proj/k_proj get
grad None and do not move while v_proj trains; the fixed RoPE (undecorated forward) trains q/k too.
"""
import torch
import torch.nn.functional as F

from pico_model import Pico, RoPE


class FixedRoPE(RoPE):
    # the fix from the PR: only the frequency table is computed without grad
    def forward(self, queries, keys):
        return RoPE.forward.__wrapped__(self, queries, keys)


def make_batch(gen, batch=16, seq=12, vocab=32):
    x = torch.randint(1, vocab, (batch, seq), generator=gen)
    return x[:, :-1], x[:, 1:]


def train(rope_cls, steps=30):
    torch.manual_seed(0)
    model = Pico(rope_cls=rope_cls)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    q0 = model.attn.q_proj.weight.detach().clone()
    k0 = model.attn.k_proj.weight.detach().clone()
    v0 = model.attn.v_proj.weight.detach().clone()
    gen = torch.Generator().manual_seed(1)
    grads = {}
    for step in range(steps):
        inp, tgt = make_batch(gen)
        logits = model(inp)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        if step == 0:
            grads = {n: (p.grad is not None and p.grad.abs().sum().item() > 0)
                     for n, p in model.attn.named_parameters()}
        opt.step()
    moved = {
        "q": not torch.equal(q0, model.attn.q_proj.weight),
        "k": not torch.equal(k0, model.attn.k_proj.weight),
        "v": not torch.equal(v0, model.attn.v_proj.weight),
    }
    return grads, moved


grads, moved = train(RoPE)
assert grads["q_proj.weight"] is False and grads["k_proj.weight"] is False, grads
assert grads["v_proj.weight"] and grads["o_proj.weight"], grads
assert not moved["q"] and not moved["k"] and moved["v"], moved

grads_fixed, moved_fixed = train(FixedRoPE)
assert grads_fixed["q_proj.weight"] and grads_fixed["k_proj.weight"], grads_fixed
assert moved_fixed["q"] and moved_fixed["k"] and moved_fixed["v"], moved_fixed
print("p01 ok: RoPE under no_grad starves q_proj/k_proj; fixed RoPE trains them")
