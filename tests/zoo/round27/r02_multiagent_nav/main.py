"""
expect: GL005 agents.py:53
dynamic: confirm
source: https://github.com/FazelYU/Adaptive-Navigation/issues/41

A multi-agent navigation project (shared graph network over the road map,
one learner per agent) hit "one of the variables needed for gradient
computation has been modified by an inplace operation". The trainer in
agents.py computes every agent's TD loss from one shared encoder pass, then
loops: backward(retain_graph=True), optimizer.step(), next agent. The first
step() rewrites the shared encoder weights in place, and the next agent's
backward still needs the old ones. The asserts show the version-counter
error on the second agent, and that one joint backward + one step works.
"""
import torch

from agents import GraphEncoder, MultiAgentTrainer, RoutingAgent

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, FEAT, HID, N_ACT, N_AGENTS, B = 12, 6, 32, 4, 3, 8


def make_batch():
    batch = []
    for _ in range(N_AGENTS):
        node_idx = torch.randint(0, N_NODES, (B,))
        action = torch.randint(0, N_ACT, (B,))
        target = torch.randn(B)
        batch.append((node_idx, action, target))
    return batch


x = torch.randn(N_NODES, FEAT)
adj = (torch.rand(N_NODES, N_NODES) < 0.3).float()
adj = ((adj + adj.t()) > 0).float()
batch = make_batch()

trainer = MultiAgentTrainer(GraphEncoder(FEAT, HID), [RoutingAgent(HID, N_ACT) for _ in range(N_AGENTS)])
err = None
try:
    trainer.update_each_agent(x, adj, batch)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

# fixed: one backward over the summed losses, then one step
torch.manual_seed(0)
fixed = MultiAgentTrainer(GraphEncoder(FEAT, HID), [RoutingAgent(HID, N_ACT) for _ in range(N_AGENTS)])
w0 = fixed.encoder.lin1.weight.detach().clone()
first = sum(fixed.update_joint(x, adj, batch))
for _ in range(20):
    last = sum(fixed.update_joint(x, adj, batch))
assert not torch.equal(w0, fixed.encoder.lin1.weight)
assert last < first
print("ok: per-agent step breaks the shared graph; joint update trains", first, "->", last)
