"""expect: GL004 61
dynamic: error
source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57

Tutorial 403 trains an RNN to map sin to cos, passing the hidden state from one training
step to the next and cutting it with h_state = h_state.data.  A reader removed that line,
hit "Trying to backward through the graph a second time" and "fixed" it with
loss.backward(retain_graph=True): every step now back-propagates through all earlier
steps' graphs, which keep growing (and today fail once the optimizer has changed the
weights those old graphs saved).
"""
import numpy as np
import torch
import torch.nn as nn

TIME_STEP = 10
INPUT_SIZE = 1


class RNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(input_size=INPUT_SIZE, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        outs = self.out(r_out)
        return outs, h_state


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


if __name__ == "__main__":
    torch.manual_seed(1)
    rnn = RNN()
    optimizer = torch.optim.Adam(rnn.parameters(), lr=0.02)
    loss_func = nn.MSELoss()
    h_state = None
    sizes, failure = [], None
    for step in range(4):
        start, end = step * np.pi, (step + 1) * np.pi
        steps = np.linspace(start, end, TIME_STEP, dtype=np.float32)
        x = torch.from_numpy(np.sin(steps)[np.newaxis, :, np.newaxis])
        y = torch.from_numpy(np.cos(steps)[np.newaxis, :, np.newaxis])

        prediction, h_state = rnn(x, h_state)
        loss = loss_func(prediction, y)
        sizes.append(graph_size(loss))
        optimizer.zero_grad()
        try:
            loss.backward(retain_graph=True)
        except RuntimeError as e:
            failure = e
            break
        optimizer.step()

    assert sizes[1] > sizes[0]                          # graph spans both steps
    assert failure is not None and "inplace" in str(failure)
    print("graph sizes", sizes, "-> backward failed:", str(failure).splitlines()[0][:70])
