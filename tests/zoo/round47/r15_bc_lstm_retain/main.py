"""
expect: GL004 bc_trainer.py:13
dynamic: confirm
source: https://github.com/Stable-Baselines-Team/stable-baselines3-contrib/issues/248

Behavior-cloning pre-training of an LSTM policy (as for RecurrentPPO) walks through one long expert demonstration
chunk by chunk and carries the LSTM state from chunk to chunk, starting from the state it is handed. The
state is never detached, so each chunk's graph hangs off all the earlier ones; the second backward then fails
with "Trying to backward through the graph a second time", and backward(retain_graph=True), as in the report,
makes it run. From then on every backward walks back through every earlier chunk: the graph reachable from the
loss grows with the chunk index, the first chunk's state is traversed once per later chunk, and the earlier
chunks' gradients are added again and again. The asserts measure the growing node count and the repeated
traversal, and compare with the chunk-wise detached version (constant graph, one traversal).
"""
import torch

from bc_trainer import pretrain_on_demo
from policy import RecurrentPolicy

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT, B, T, CHUNKS = 5, 2, 4, 6, 8


def count_nodes(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(next_fn for next_fn, _ in fn.next_functions)
    return len(seen)


demo = [(torch.randn(T, B, OBS), torch.tanh(torch.randn(T, B, ACT))) for _ in range(CHUNKS)]


def probe():
    sizes, visits = [], {"n": 0}

    def on_loss(index, loss, states):
        sizes.append(count_nodes(loss.grad_fn))
        if index == 0:
            states[1].register_hook(lambda g: visits.__setitem__("n", visits["n"] + 1))

    return sizes, visits, on_loss


policy = RecurrentPolicy(OBS, ACT)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
sizes, visits, on_loss = probe()
pretrain_on_demo(policy, demo, optimizer, policy.initial_state(B), on_loss)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] > 5 * sizes[0], sizes
assert visits["n"] == CHUNKS, visits
print("graph nodes per chunk:", sizes)


def pretrain_detached(policy, demo_chunks, optimizer, start_lstm_state, on_loss):
    lstm_states = start_lstm_state
    optimizer.zero_grad()
    for index, (obs_chunk, expert_actions) in enumerate(demo_chunks):
        predicted, lstm_states = policy(obs_chunk, lstm_states)
        loss = torch.nn.functional.mse_loss(predicted, expert_actions)
        on_loss(index, loss, lstm_states)
        loss.backward()
        lstm_states = tuple(s.detach() for s in lstm_states)
    optimizer.step()


torch.manual_seed(0)
policy2 = RecurrentPolicy(OBS, ACT)
sizes2, visits2, on_loss2 = probe()
pretrain_detached(policy2, demo, torch.optim.Adam(policy2.parameters(), lr=1e-3), policy2.initial_state(B), on_loss2)
assert len(set(sizes2[1:])) == 1, sizes2
assert visits2["n"] == 1, visits2
print("detached per chunk:", sizes2)
