"""
expect: none
dynamic: dismiss
source: https://github.com/UT-Austin-RPL/amago/pull/27

The pull request ("Alternate Backward") explains that adding the actor and critic losses
lets the actor objective push the critics' outputs up, and fixes it by running the actor
loss backward first while retaining the graph, zeroing the critic gradients, and then running
the critic loss backward through the shared sequence model. This program rebuilds that
update in learner.py and calls it every training step. It is a look-alike: retain_graph is
needed because the two losses share one forward pass, and nothing is carried between steps,
so the asserts show the critic's gradient equals the critic loss's gradient alone, the graph
per step stays the same size, and both heads train.
"""
import torch
from learner import SharedAgent, losses, alternate_backward

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


agent = SharedAgent()
opt = torch.optim.Adam(agent.parameters(), lr=1e-3)
obs = torch.randn(8, 5, 6)
act = torch.rand(8, 2) * 2 - 1
target = torch.randn(8, 1)
batch = (obs, act, target)

_, critic_only = losses(agent, *batch)
ref = torch.autograd.grad(critic_only, list(agent.critic.parameters()))
opt.zero_grad()
actor_loss, critic_loss = losses(agent, *batch)
actor_loss.backward(retain_graph=True)
for p in agent.critic.parameters():
    p.grad = None
critic_loss.backward()
for p, g in zip(agent.critic.parameters(), ref):
    assert torch.allclose(p.grad, g, atol=1e-6)

sizes = []
actor0 = [p.detach().clone() for p in agent.actor.parameters()]
critic0 = [p.detach().clone() for p in agent.critic.parameters()]
for _ in range(5):
    a_l, c_l = losses(agent, *batch)
    sizes.append(graph_size(a_l) + graph_size(c_l))
    alternate_backward(agent, opt, batch)
assert len(set(sizes)) == 1, sizes
assert any(not torch.equal(a, b) for a, b in zip(actor0, agent.actor.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(critic0, agent.critic.parameters()))
print("ok: retain_graph is needed for the shared graph and nothing accumulates", sizes)
