"""
expect: GL004 seqtrain.py:63
dynamic: confirm
source: https://github.com/dsgiitr/d2l-pytorch/blob/e84da49a9ea4ba448f4aaf2d18ecd9edafaa2419/d2l/train.py#L289

In the PyTorch port of "Dive into Deep Learning", `train_and_predict_rnn_nn` trains a recurrent
model with consecutive sampling, so the hidden state of one minibatch is the starting state of the
next. To cut the history between minibatches it writes `for s in state: s.detach()`, which throws
the detached copies away and leaves the state attached to the previous graph; the backward error
that follows was then silenced with `l.backward(retain_graph=True)`. Every new loss therefore
reaches back through all earlier minibatches: each step backpropagates through an ever longer
chain (time and memory grow with the epoch), and because the optimizer updates the GRU weights in
place between steps, current PyTorch stops at the second minibatch with "modified by an inplace
operation" once backward runs into the old graph. Here `seqtrain.py` holds the training routine
and this file drives it on a noisy sine series (one-step-ahead forecasting). The asserts show the
autograd graph behind each loss growing linearly when the state is carried this way (measured
without optimizer steps), the in-place RuntimeError when the optimizer does step, and that the fix
(`state = tuple(s.detach() for s in state)` and a plain `backward()`) keeps the graph size
constant and lowers the forecasting loss.
"""
import torch

from seqtrain import GRUForecaster, train_consecutive

torch.manual_seed(0)
torch.set_num_threads(1)


def main():
    t = torch.arange(0, 400).float()
    series = torch.sin(0.1 * t) + 0.05 * torch.randn_like(t)
    init = GRUForecaster().state_dict()

    model = GRUForecaster()
    model.load_state_dict(init)
    sizes, _ = train_consecutive(model, series, update=False)
    steps = [b - a for a, b in zip(sizes, sizes[1:])]
    assert len(sizes) > 5 and all(d > 0 for d in steps)
    assert len(set(steps)) == 1  # the same amount of graph is added per minibatch
    assert sizes[-1] > 5 * sizes[0]

    model = GRUForecaster()
    model.load_state_dict(init)
    try:
        train_consecutive(model, series, update=True)
        raise AssertionError("expected the in-place error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)

    model = GRUForecaster()
    model.load_state_dict(init)
    sizes, losses = train_consecutive(model, series, epochs=6, fixed=True)
    assert len(set(sizes)) == 1
    first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
    assert last < 0.5 * first, (first, last)
    print(f"carried state: graph {sizes[0]} nodes at start; fixed: constant graph, loss {first:.3f} -> {last:.3f}")


if __name__ == "__main__":
    main()
