"""
expect: none
dynamic: dismiss
source: none, invented

A character-level LSTM language model trained on a repeated toy corpus. The loop in main.py runs each split
through `run_split(..., update)`, which hands the flag to `engine.step`, which hands the same flag to both
`forward_pass` (model.train(update) and `torch.set_grad_enabled(update)`) and `apply_update` (returns early
when `update` is false, otherwise `loss.requires_grad_(True)`, backward, gradient clipping and the
optimizer step). Since both helpers always receive the same value, the `requires_grad_` call only ever sees
a loss that already has a graph, and the held-out split never builds a graph or changes the weights. The
asserts show the training perplexity falls, gradients flow (non-zero clipped norms), and the evaluation
pass returns graph-free losses and leaves every weight unchanged.
"""
import torch

import engine

torch.manual_seed(0)
torch.set_num_threads(1)

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
CHARS = sorted(set(TEXT))
IDS = torch.tensor([CHARS.index(c) for c in TEXT])


def batches(ids, seq_len=24, batch=16, offset=0):
    starts = torch.arange(offset, len(ids) - seq_len - 1, seq_len)
    windows = torch.stack([ids[s:s + seq_len + 1] for s in starts])
    return [windows[i:i + batch] for i in range(0, len(windows), batch)]


def run_split(model, optimizer, split, update):
    losses, norms = [], []
    for batch in split:
        loss, norm = engine.step(model, optimizer, batch, update)
        losses.append(loss)
        norms.append(norm)
    return losses, norms


def main():
    model = engine.CharLSTM(len(CHARS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_split, heldout = batches(IDS[:1400]), batches(IDS[1400:], offset=3)
    history = []
    for epoch in range(8):
        losses, norms = run_split(model, optimizer, train_split, update=True)
        history.append(sum(l.item() for l in losses) / len(losses))
        assert all(n > 0 for n in norms)
        assert all(l.grad_fn is not None for l in losses)
        snapshot = [p.detach().clone() for p in model.parameters()]
        eval_losses, eval_norms = run_split(model, optimizer, heldout, update=False)
        assert all(l.grad_fn is None and not l.requires_grad for l in eval_losses)
        assert all(torch.equal(a, p.detach()) for a, p in zip(snapshot, model.parameters()))
    assert history[-1] < 0.5 * history[0], history
    print("k11: language model trains; held-out passes build no graph")


if __name__ == "__main__":
    main()
