"""expect: GL004 51
dynamic: confirm
source: https://github.com/EagleW/Writing-editing-Network/issues/3

Writing-editing network for abstract generation: within each batch the
seq2seq model produces a draft, then re-reads its own previous draft (argmax
token ids, which carry no graph) and writes a revised one, for a fixed number of
passes. Every pass runs a fresh forward, backpropagates its own loss and takes an
optimizer step. Each pass calls `backward(retain_graph=True)`, although no later
pass or batch ever backpropagates through that graph again; the saved
activations of every pass stay alive until the loss variable is rebound, so the
previous pass's whole graph sits in memory during the next forward. Training
with retain_graph=False gives exactly the same parameters.
"""
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F


class DraftEditor(nn.Module):
    def __init__(self, vocab=30, dim=24):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.draft_reader = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(2 * dim, vocab)

    def forward(self, src, prev_draft, tgt_in):
        _, h = self.encoder(self.embed(src))
        if prev_draft is not None:
            _, h_d = self.draft_reader(self.embed(prev_draft))
            h = h + h_d
        dec, _ = self.decoder(self.embed(tgt_in), h)
        ctx = h.transpose(0, 1).expand(-1, dec.shape[1], -1)
        return self.out(torch.cat([dec, ctx], dim=-1))


def train_batch(model, optimizer, src, tgt, num_passes=3, max_norm=1.0):
    losses = []
    prev_draft = None
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    for _ in range(num_passes):
        logits = model(src, prev_draft, tgt_in)
        loss_i = F.cross_entropy(logits.reshape(-1, model.vocab), tgt_out.reshape(-1))
        losses.append(loss_i.item())
        model.zero_grad()
        loss_i.backward(retain_graph=True)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        prev_draft = logits.topk(1, dim=-1)[1].squeeze(-1)
    return losses


class _Holder:
    def __init__(self, t):
        self.t = t.detach()


def run(force_free):
    torch.manual_seed(0)
    model = DraftEditor()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    src = torch.randint(0, 30, (4, 7))
    tgt = torch.randint(0, 30, (4, 6))
    live, seen_at_forward = [], []

    def pack(t):
        h = _Holder(t)
        live.append(weakref.ref(h))
        return h

    def unpack(h):
        return h.t

    model.register_forward_pre_hook(
        lambda m, a: seen_at_forward.append(sum(r() is not None for r in live)))
    original_backward = torch.Tensor.backward
    if force_free:
        def freeing_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
            return original_backward(self, gradient, False, create_graph, inputs)
        torch.Tensor.backward = freeing_backward
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            for _ in range(2):
                train_batch(model, opt, src, tgt)
    finally:
        torch.Tensor.backward = original_backward
    return model, seen_at_forward


def main():
    retained_model, alive_retained = run(force_free=False)
    freed_model, alive_freed = run(force_free=True)
    assert max(alive_retained[1:]) > 0, "previous pass graph should still be alive"
    assert all(n == 0 for n in alive_freed)
    for a, b in zip(retained_model.parameters(), freed_model.parameters()):
        assert torch.allclose(a, b)
    print("retained graphs were never reused; saved tensors alive at next forward:", alive_retained)


if __name__ == "__main__":
    main()
