"""expect: GL004 45
dynamic: confirm
source: https://github.com/pytorch/examples/issues/151

REINFORCE with a linear softmax policy.  To "reuse experience" the saved log-probs
are never cleared between episodes: every update stacks the whole, ever-growing
list into the loss, so backward needs retain_graph=True and the retained graph
gains one episode of nodes per update.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
policy = nn.Linear(4, 2)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
saved_log_probs, saved_returns, sizes = [], [], []
for episode in range(5):
    rewards = []
    for t in range(8):
        state = torch.randn(4)
        dist = Categorical(logits=policy(state))
        action = dist.sample()
        saved_log_probs.append(dist.log_prob(action))
        rewards.append(1.0 if action.item() == int(state[0] > 0) else 0.0)
    ret, returns = 0.0, []
    for r in reversed(rewards):
        ret = r + 0.99 * ret
        returns.insert(0, ret)
    saved_returns.extend(returns)
    returns_t = torch.tensor(saved_returns)
    loss = -(torch.stack(saved_log_probs) * returns_t).sum()
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(loss))

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
