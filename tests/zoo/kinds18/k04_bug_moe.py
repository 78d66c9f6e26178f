"""
expect: GL001 20
dynamic: confirm
source: kind 4

A top-1 mixture-of-experts feed-forward layer for a language model routes each
token with torch.max over the router probabilities, but route() returns
(indices.detach(), values.detach()): the gate weight that scales the chosen
expert's output is cut from the graph, so the router never gets a gradient.
The asserts show router.weight.grad is None and the router never changes while
the experts train, and that a straight-through gate trains the router.
"""
import torch
import torch.nn as nn


def route(router_logits):
    probs = router_logits.softmax(dim=-1)
    values, indices = torch.max(probs, dim=1)
    return indices.detach(), values.detach()


def route_st(router_logits):
    probs = router_logits.softmax(dim=-1)
    values, indices = torch.max(probs, dim=1)
    return indices.detach(), 1 - values.detach() + values


class MoEFeedForward(nn.Module):
    def __init__(self, d_model=16, n_experts=4, router_fn=route):
        super().__init__()
        self.router = nn.Linear(d_model, n_experts)
        self.experts = nn.ModuleList(nn.Linear(d_model, d_model) for _ in range(n_experts))
        self.router_fn = router_fn

    def forward(self, tokens):  # (N, d_model)
        idx, gate = self.router_fn(self.router(tokens))
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            mask = idx == e
            if mask.any():
                out[mask] = expert(tokens[mask]) * gate[mask].unsqueeze(-1)
        return tokens + out


def train(layer, steps=20):
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    for _ in range(steps):
        x = torch.randn(64, 16)
        loss = (layer(x) - x.roll(1, dims=-1)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = MoEFeedForward()
    r0 = layer.router.weight.detach().clone()
    e0 = torch.cat([e.weight.detach().flatten() for e in layer.experts])
    train(layer)
    assert layer.router.weight.grad is None
    assert torch.equal(r0, layer.router.weight.detach())
    assert not torch.equal(e0, torch.cat([e.weight.detach().flatten() for e in layer.experts]))

    st = MoEFeedForward(router_fn=route_st)
    r0 = st.router.weight.detach().clone()
    train(st)
    assert st.router.weight.grad is not None and st.router.weight.grad.abs().sum() > 0
    assert not torch.equal(r0, st.router.weight.detach())
    print("ok: detached gate freezes the router; straight-through gate trains it")
