"""
expect: GL001 main.py:38, GL002 main.py:39
dynamic: confirm
source: https://github.com/webis-de/RENEUIR-24/blob/bb3357460db65667f1d7461b705d4152d0c01a0b/code/cross-encoder-custom.py

The original script fine-tunes a BERT cross-encoder for passage re-ranking with a hand-written
loop. To get scores it calls the wrapper's `predict(...)`, which runs the network in eval mode
without gradient tracking, and then, because the loss then complained about a missing grad_fn,
wraps the scores as `torch.tensor(outputs, requires_grad=True)` with the comment "needed for
backpropagation". The BCE loss therefore backpropagates only into that fresh leaf tensor: the
scores were produced outside the record (the no-grad predict call) and the copy cuts them off a
second time, so the optimizer built on `model.model.parameters()` never sees a gradient and the
ranker is never fine-tuned although the loop runs and prints a loss. Here `ranker.py` holds a small
pair scorer with a no-grad `predict`, and this file holds the training loop. The asserts show that
after a few epochs the leaf copy has a gradient while every model parameter has `.grad is None`
and is bit-for-bit unchanged, and that the fixed loop (call the network itself in train mode)
changes the weights and lowers the loss.
"""
import copy
import warnings

import torch

from ranker import TinyCrossEncoder, make_batches

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="To copy construct from a tensor")


def finetune_as_reported(encoder, batches, epochs=3):
    optimizer = torch.optim.Adam(encoder.model.parameters(), lr=5e-2)
    loss_function = torch.nn.BCEWithLogitsLoss()
    encoder.model.train()
    last_leaf = None
    for _ in range(epochs):
        for pairs, labels in batches:
            outputs = encoder.predict(pairs)
            inputs = torch.tensor(outputs, requires_grad=True)  # "needed for backpropagation"
            loss = loss_function(inputs, labels)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            last_leaf = inputs
    return last_leaf


def finetune_fixed(encoder, batches, epochs=3):
    optimizer = torch.optim.Adam(encoder.model.parameters(), lr=5e-2)
    loss_function = torch.nn.BCEWithLogitsLoss()
    encoder.model.train()
    for _ in range(epochs):
        for (query_ids, doc_ids), labels in batches:
            logits = encoder.model(query_ids, doc_ids)
            loss = loss_function(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def mean_loss(encoder, batches):
    loss_function = torch.nn.BCEWithLogitsLoss()
    with torch.no_grad():
        return sum(loss_function(encoder.predict(p), y).item() for p, y in batches) / len(batches)


def main():
    batches = make_batches()

    buggy = TinyCrossEncoder()
    before = copy.deepcopy(buggy.model.state_dict())
    loss_before = mean_loss(buggy, batches)
    leaf = finetune_as_reported(buggy, batches)
    assert leaf.grad is not None and leaf.grad.abs().sum() > 0  # the loss only reaches the copy
    for name, p in buggy.model.named_parameters():
        assert p.grad is None, name
        assert torch.equal(p, before[name]), name
    assert abs(mean_loss(buggy, batches) - loss_before) < 1e-12

    fixed = TinyCrossEncoder()
    fixed.model.load_state_dict(before)
    finetune_fixed(fixed, batches)
    moved = [n for n, p in fixed.model.named_parameters() if not torch.equal(p, before[n])]
    assert len(moved) == len(before)
    loss_after = mean_loss(fixed, batches)
    assert loss_after < 0.5 * loss_before, (loss_before, loss_after)
    print(f"reported loop: loss stays {loss_before:.3f}; fixed loop: {loss_before:.3f} -> {loss_after:.3f}")


if __name__ == "__main__":
    main()
