"""
expect: GL005 main.py:56
dynamic: confirm
source: https://github.com/HLTCHKUST/PAML/issues/18

PAML (persona-agnostic meta-learning for dialogue) meta-trains a Transformer with
first-order MAML written around the model's own optimizer: for each persona in
the meta-batch it saves nothing but a deepcopy of the state_dict, adapts the
model in place with optimizer.step() on the persona's train dialogues, computes
the validation loss with the adapted weights (keeping the graph), adds it to
batch_loss and then restores the original weights with
meta_net.load_state_dict(weights_original). load_state_dict copies the saved
values into the very parameter tensors the validation forward saved for its
backward, so by the time batch_loss.backward() runs those tensors have been
modified in place and autograd raises "one of the variables needed for gradient
computation has been modified by an inplace operation" (the issue's traceback,
at the outer-loop backward). The reproduction keeps the same loop structure with
a small persona classifier. The asserts show the RuntimeError at the meta
backward, and that taking the first-order meta-gradient of each task's
validation loss before the weights are restored gives a working meta update.
"""
import copy

import torch

from model import PersonaModel, do_learning_fix_step

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, META_BATCH = 12, 4


def make_persona(gen):
    favourite = torch.randint(0, VOCAB, (1,), generator=gen).item()

    def batch(n=16):
        src = torch.randint(0, VOCAB, (n, 5), generator=gen)
        src[:, 0] = favourite
        tgt = torch.full((n,), favourite)
        return src, tgt
    return [batch() for _ in range(2)], [batch()]


gen = torch.Generator().manual_seed(0)
meta_net = PersonaModel(VOCAB)
meta_optimizer = torch.optim.Adam(meta_net.parameters(), lr=1e-3)

# --- the original meta iteration -------------------------------------------
weights_original = copy.deepcopy(meta_net.state_dict())
batch_loss = 0
for _ in range(META_BATCH):
    train_iter, val_iter = make_persona(gen)
    val_loss = do_learning_fix_step(meta_net, train_iter, val_iter)
    batch_loss = batch_loss + val_loss
    meta_net.load_state_dict({name: weights_original[name] for name in weights_original})
meta_optimizer.zero_grad()
batch_loss = batch_loss / META_BATCH
try:
    batch_loss.backward()
    raise AssertionError("expected the in-place modification error")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e


# --- fixed: take each task's first-order meta-gradient before restoring ------
def meta_iteration(meta_net, meta_optimizer, gen):
    params = list(meta_net.parameters())
    weights_original = copy.deepcopy(meta_net.state_dict())
    acc = [torch.zeros_like(p) for p in params]
    total = 0.0
    for _ in range(META_BATCH):
        train_iter, val_iter = make_persona(gen)
        val_loss = do_learning_fix_step(meta_net, train_iter, val_iter)
        grads = torch.autograd.grad(val_loss, params)
        acc = [a + g / META_BATCH for a, g in zip(acc, grads)]
        total += val_loss.item() / META_BATCH
        meta_net.load_state_dict(weights_original)
    meta_optimizer.zero_grad()
    for p, g in zip(params, acc):
        p.grad = g
    meta_optimizer.step()
    return total


def adapted_val_loss(meta_net, seed=999, n=8):
    g = torch.Generator().manual_seed(seed)
    saved = copy.deepcopy(meta_net.state_dict())
    total = 0.0
    for _ in range(n):
        train_iter, val_iter = make_persona(g)
        total += do_learning_fix_step(meta_net, train_iter, val_iter).item() / n
        meta_net.load_state_dict(saved)
    return total


torch.manual_seed(0)
meta_net = PersonaModel(VOCAB)
meta_optimizer = torch.optim.Adam(meta_net.parameters(), lr=1e-2)
before = [p.detach().clone() for p in meta_net.parameters()]
loss_before = adapted_val_loss(meta_net)
for s in range(60):
    meta_iteration(meta_net, meta_optimizer, torch.Generator().manual_seed(s))
loss_after = adapted_val_loss(meta_net)
assert any(not torch.equal(b, p.detach()) for b, p in zip(before, meta_net.parameters()))
assert loss_after < 0.5 * loss_before, (loss_before, loss_after)
print("restore-then-backward raises; fixed FOMAML: adapted val loss %.3f -> %.3f" % (loss_before, loss_after))
