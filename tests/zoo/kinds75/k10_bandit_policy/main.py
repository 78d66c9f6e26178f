"""
expect: none
dynamic: dismiss
source: none, invented

Reinforcement learning / contextual bandits. The training script imports the
project's `rltools` package, whose modules touch the global grad mode in two
places that look like import-time side effects but are not: `kernels.py`
calls `warm_up_kernels()` at module top level, which does
`torch.set_grad_enabled(False)` but saves the previous mode and restores it in a
`finally`; `evaluation.py` switches grad off only under
`if __name__ == "__main__":`, which does not run on import. Recording is
therefore still on when `reinforce_step` calls backward. The asserts show grad
mode is on after the import, that the REINFORCE steps change the policy's
parameters, and that the greedy reward of the trained policy beats the
untrained one.
"""
import copy

import torch
import torch.nn as nn

from env import LinearBandit
from rltools import greedy_reward


class SoftmaxPolicy(nn.Module):
    def __init__(self, n_context, n_actions):
        super().__init__()
        self.logits = nn.Linear(n_context, n_actions)

    def forward(self, ctx):
        return self.logits(ctx)

    def act(self, ctx, gen):
        probs = torch.softmax(self(ctx), -1)
        return torch.multinomial(probs, 1, generator=gen).squeeze(-1)


def reinforce_step(policy, opt, bandit, gen, batch=256):
    ctx = bandit.contexts(batch)
    with torch.no_grad():
        actions = policy.act(ctx, gen)
        reward = bandit.pull(ctx, actions)
        advantage = reward - reward.mean()
    logp = torch.log_softmax(policy(ctx), -1).gather(1, actions[:, None]).squeeze(1)
    loss = -(advantage * logp).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return reward.mean().item()


def main():
    assert torch.is_grad_enabled(), "rltools import must leave grad mode on"
    torch.manual_seed(0)
    bandit = LinearBandit()
    policy = SoftmaxPolicy(8, 4)
    start = copy.deepcopy(policy)
    opt = torch.optim.Adam(policy.parameters(), lr=0.05)
    gen = torch.Generator().manual_seed(1)

    eval_ctx = bandit.contexts(1000)
    before = greedy_reward(policy, eval_ctx, bandit.expected_reward)
    for _ in range(60):
        reinforce_step(policy, opt, bandit, gen)
    after = greedy_reward(policy, eval_ctx, bandit.expected_reward)

    assert not torch.equal(start.logits.weight, policy.logits.weight)
    assert after > before + 0.5, (before, after)
    assert torch.is_grad_enabled()
    print(f"k10 ok: greedy reward {before:.3f} -> {after:.3f}; grad mode untouched by imports")


if __name__ == "__main__":
    main()
