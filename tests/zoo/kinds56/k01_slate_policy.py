"""
expect: GL005 38
dynamic: confirm
source: none, invented

A contextual-bandit slate policy: an MLP scores every catalogue item, a sigmoid turns the scores
into independent "show this item" probabilities, and REINFORCE is run on simulated clicks.  Items
that are out of stock are switched off by the helper `suppress_unavailable`, which multiplies the
probabilities by the stock mask in place.  The tensor handed to it is the output of `torch.sigmoid`,
which the sigmoid node keeps for its backward pass, so the in-place `mul_` bumps its version and
`loss.backward()` fails with "modified by an inplace operation".  The asserts catch that error for
the in-place helper and show that the out-of-place helper lets the policy weights move.
"""
import torch
import torch.nn as nn
from torch.distributions import Bernoulli

torch.manual_seed(0)
torch.set_num_threads(1)

N_ITEMS = 12
CTX_DIM = 8


class SlatePolicy(nn.Module):
    def __init__(self, ctx_dim, n_items, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(ctx_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_items)
        )

    def forward(self, ctx):
        return torch.sigmoid(self.body(ctx))


def suppress_unavailable(show_probs, in_stock):
    # out-of-stock items must never be shown
    show_probs.mul_(in_stock)
    return show_probs


def suppress_unavailable_copy(show_probs, in_stock):
    return show_probs * in_stock


def simulate_clicks(shown, ctx, true_w):
    click_rate = torch.sigmoid(ctx @ true_w)
    return (torch.rand_like(click_rate) < click_rate).float() * shown


def run(mask_fn, steps=25):
    torch.manual_seed(0)
    policy = SlatePolicy(CTX_DIM, N_ITEMS)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    true_w = torch.randn(CTX_DIM, N_ITEMS)
    start = {k: v.clone() for k, v in policy.state_dict().items()}
    for _ in range(steps):
        ctx = torch.randn(64, CTX_DIM)
        in_stock = (torch.rand(64, N_ITEMS) > 0.2).float()
        probs = mask_fn(policy(ctx), in_stock)
        dist = Bernoulli(probs=probs.clamp(1e-4, 1 - 1e-4))
        shown = dist.sample()
        reward = simulate_clicks(shown, ctx, true_w) - 0.1 * shown
        loss = -(dist.log_prob(shown) * reward).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    end = policy.state_dict()
    return all(not torch.equal(start[k], end[k]) for k in start)


if __name__ == "__main__":
    try:
        run(suppress_unavailable)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("backward through the masked sigmoid should have failed")
    assert run(suppress_unavailable_copy), "policy did not train with the out-of-place mask"
    print("k01: in-place mask on sigmoid output fails backward; copy variant trains")
