"""
expect: GL001 30
dynamic: confirm
source: kinds check 22, kind 4 (written for this check)

A mixture-of-experts feed-forward layer returns (output, load_balance_loss.detach()) and
the language-model trainer adds that auxiliary term to its loss; the detach means the
balancing term never reaches the router. The asserts show the router grad is identical
with the aux coefficient 0 and 1, while an undetached variant changes it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoEFeedForward(nn.Module):
    def __init__(self, d=16, n_experts=4):
        super().__init__()
        self.router = nn.Linear(d, n_experts)
        self.experts = nn.ModuleList(nn.Linear(d, d) for _ in range(n_experts))

    def mix(self, h):
        probs = F.softmax(self.router(h), dim=-1)
        outs = torch.stack([e(h) for e in self.experts], dim=-1)
        y = (outs * probs.unsqueeze(-2)).sum(-1)
        return y, probs.shape[-1] * (probs.mean(0) ** 2).sum()

    def forward(self, h):
        y, balance = self.mix(h)
        return y, balance.detach()


class MoEFeedForwardFixed(MoEFeedForward):
    def forward(self, h):
        return self.mix(h)


def router_grad(aux_coef, moe_cls):
    torch.manual_seed(7)
    emb, moe, lm_head = nn.Embedding(50, 16), moe_cls(), nn.Linear(16, 50)
    tokens = torch.randint(0, 50, (32,))
    y, aux = moe(emb(tokens))
    loss = F.cross_entropy(lm_head(y), torch.roll(tokens, -1)) + aux_coef * aux
    loss.backward()
    return moe.router.weight.grad.clone()


assert torch.allclose(router_grad(0.0, MoEFeedForward), router_grad(1.0, MoEFeedForward))
assert not torch.allclose(router_grad(0.0, MoEFeedForwardFixed), router_grad(1.0, MoEFeedForwardFixed))
print("ok: detached balance loss never reaches the router")
