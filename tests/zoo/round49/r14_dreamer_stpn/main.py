"""
expect: GL004 main.py:52
dynamic: confirm
source: https://github.com/NM512/dreamerv3-torch/issues/22

A world-model trainer whose recurrent cell is a short-term-plasticity unit (as in the linked issue, where a user
plugged STPN memory cells into DreamerV3's RSSM). The plastic state is kept on the module and carried from one
training batch to the next without a reset or detach, so every batch's graph hangs off the previous batch's
graph. That is what produced "Trying to backward through the graph a second time" in the issue; the workaround
the error message suggests, backward(retain_graph=True), makes the error go away but keeps every old graph alive:
each step's backward walks back through all earlier batches, so the number of autograd nodes reachable from the
loss and the time per step grow without bound, and the gradients mix in stale batches. The asserts show the plain
backward failing, the node count growing under retain_graph, and that a per-batch reset keeps it constant.
"""
import torch
import torch.nn.functional as F

from rssm import PlasticRSSM

torch.manual_seed(0)
torch.set_num_threads(1)


def reachable_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def batch(B=4, T=5):
    return torch.randn(B, T, 6), torch.randn(B, T, 2), torch.randn(B, T, 1)


def world_model_loss(model, obs, act, rew):
    pred_obs, pred_rew = model.observe(obs, act)
    return F.mse_loss(pred_obs[:, :-1], obs[:, 1:]) + F.mse_loss(pred_rew, rew)


model = PlasticRSSM()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sizes = []
for step in range(5):
    obs, act, rew = batch()
    loss = world_model_loss(model, obs, act, rew)
    sizes.append(reachable_nodes(loss))
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

# without retain_graph the carried state makes the second batch fail, which is why the flag was added
plain = PlasticRSSM()
for step in range(2):
    obs, act, rew = batch()
    loss = world_model_loss(plain, obs, act, rew)
    try:
        loss.backward()
        err = None
    except RuntimeError as e:
        err = str(e)
assert err is not None and "backward through the graph a second time" in err

# intended: a fresh plastic state per training sequence, no retained graph
fixed = PlasticRSSM()
opt = torch.optim.Adam(fixed.parameters(), lr=1e-3)
fixed_sizes = []
for step in range(5):
    fixed._plastic_train = fixed.cell.states_init(4)
    obs, act, rew = batch()
    loss = world_model_loss(fixed, obs, act, rew)
    fixed_sizes.append(reachable_nodes(loss))
    opt.zero_grad()
    loss.backward()
    opt.step()
assert len(set(fixed_sizes)) == 1
print("graph nodes per step with carried state + retain_graph:", sizes, "| with reset:", fixed_sizes[0])
