"""
expect: GL004 tbptt.py:39
dynamic: confirm
source: none, invented

A next-action model for user click streams (embedding + `LSTMCell`) trained with truncated BPTT in
tbptt.py: every `k` steps the loop calls `loss.backward(retain_graph=True)`, steps the optimizer and starts
the next segment with `start_segment(state)`. That helper is meant to cut the carried (h, c) state from the
history, but it returns `h.clone(), c.clone()`, and a clone keeps the autograd history. The next segment's
backward therefore runs back through the previous segments' graph, which was retained, and whose saved
LSTM weights have since been updated in place by `optimizer.step()`; autograd stops with "one of the
variables needed for gradient computation has been modified by an inplace operation". The asserts catch
and check that RuntimeError on the second segment; `train_stream_v2` here, whose helper returns detached
copies, runs the whole stream and lowers the loss.
"""
import torch
import torch.nn.functional as F

from tbptt import NextActionModel, train_stream

torch.manual_seed(0)
torch.set_num_threads(1)

N_ACTIONS = 8


def click_streams(users=16, length=121):
    # each user cycles through a personal route of actions with occasional random clicks
    routes = torch.stack([torch.randperm(N_ACTIONS)[:4] for _ in range(users)])
    pos = torch.arange(length) % 4
    actions = routes[:, pos]
    noise = torch.rand(users, length) < 0.1
    return torch.where(noise, torch.randint(0, N_ACTIONS, (users, length)), actions)


def new_segment(state):
    return tuple(s.detach() for s in state)


def train_stream_v2(model, optimizer, actions, k=10):
    state = model.init_state(actions.size(0))
    loss, seen = 0.0, []
    for t in range(actions.size(1) - 1):
        logits, state = model(actions[:, t], state)
        loss = loss + F.cross_entropy(logits, actions[:, t + 1])
        if (t + 1) % k == 0:
            optimizer.zero_grad()
            loss.backward(retain_graph=True)
            optimizer.step()
            seen.append(loss.item() / k)
            loss = 0.0
            state = new_segment(state)
    return seen


if __name__ == "__main__":
    streams = click_streams()

    torch.manual_seed(0)
    model = NextActionModel(N_ACTIONS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    try:
        train_stream(model, optimizer, streams)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified by an inplace operation" in raised

    torch.manual_seed(0)
    model = NextActionModel(N_ACTIONS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    history = []
    for epoch in range(4):
        history += train_stream_v2(model, optimizer, streams)
    assert sum(history[-5:]) < 0.6 * sum(history[:5]), history
    print("k14: segments restart cleanly only with detached state copies")
