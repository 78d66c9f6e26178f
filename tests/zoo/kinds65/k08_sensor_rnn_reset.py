"""
expect: none
dynamic: dismiss
source: none, invented

An activity-recognition model over accelerometer windows that keeps its recurrent hidden state on the
module: `update()` rebuilds `self.hidden` from itself and one frame, `predict()` reads it to produce class
logits and a next-frame forecast. For every window the loop resets the hidden state, unrolls the window,
then backpropagates the classification loss with retain_graph=True and the forecasting loss afterwards
through the same graph. Because the state is rebuilt from zeros at the start of every iteration, each
graph covers one window only and nothing leaks between iterations. The asserts check that the autograd
graph has the same size every iteration, every parameter receives a gradient, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivityRNN(nn.Module):
    def __init__(self, n_axes=3, hidden=24, n_classes=4):
        super().__init__()
        self.inp = nn.Linear(n_axes, hidden)
        self.rec = nn.Linear(hidden, hidden, bias=False)
        self.cls = nn.Linear(hidden, n_classes)
        self.forecast = nn.Linear(hidden, n_axes)
        self.hidden_size = hidden
        self.hidden = None

    def reset(self, batch):
        self.hidden = torch.zeros(batch, self.hidden_size)

    def update(self, frame):
        self.hidden = torch.tanh(self.inp(frame) + self.rec(self.hidden))

    def predict(self):
        return self.cls(self.hidden), self.forecast(self.hidden)


def count_nodes(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        n = todo.pop()
        if n is not None and n not in seen:
            seen.add(n)
            todo.extend(m for m, _ in n.next_functions)
    return len(seen)


def make_windows(n, length=12):
    labels = torch.randint(0, 4, (n,))
    freq = (labels.float() + 1.0).view(n, 1, 1)
    t = torch.arange(length + 1).float().view(1, -1, 1)
    signal = torch.sin(freq * 0.4 * t) * torch.ones(1, 1, 3) + 0.05 * torch.randn(n, length + 1, 3)
    return signal[:, :-1], signal[:, -1], labels


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    windows, next_frames, labels = make_windows(64)
    model = ActivityRNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sizes, losses = [], []
    for it in range(40):
        idx = torch.randint(0, 64, (16,))
        model.reset(len(idx))
        for t in range(windows.shape[1]):
            model.update(windows[idx, t])
        logits, forecast = model.predict()
        cls_loss = F.cross_entropy(logits, labels[idx])
        fc_loss = F.mse_loss(forecast, next_frames[idx])
        sizes.append(count_nodes(cls_loss))
        opt.zero_grad()
        cls_loss.backward(retain_graph=True)
        fc_loss.backward()
        if it == 0:
            for name, p in model.named_parameters():
                assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
        losses.append(cls_loss.item())
    assert len(set(sizes)) == 1
    assert sum(losses[-5:]) < sum(losses[:5])
    print("cls loss %.3f -> %.3f, graph nodes %d" % (losses[0], losses[-1], sizes[0]))


if __name__ == "__main__":
    main()
