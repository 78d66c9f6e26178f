"""
expect: GL004 main.py:48
dynamic: confirm
source: https://github.com/hiyoung123/SoftMaskedBert/issues/15

A Soft-Masked BERT spelling corrector computes the [MASK] embedding once in
__init__ (self.mask_e = self.embedding(mask_id)) and mixes it into every
forward. From the second batch on, backward runs into the first batch's freed
graph, and the trainer "fixed" that with loss.backward(retain_graph=True); the
issue asks why. Here the same structure is trained: the init-time graph stays
alive and is re-traversed by every step, and the soft mask keeps using a stale
snapshot while the [MASK] row of the table moves. The asserts show the error
without retain_graph, the hook on mask_e firing on every step, the drift
between mask_e and the live row, and that computing the mask inside forward
needs no retain_graph.
"""
import torch
import torch.nn.functional as F

from model import MASK_ID, SoftMaskedCorrector

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(g, b=16, t=12, vocab=30):
    clean = torch.randint(2, vocab, (b, t), generator=g)
    noisy = clean.clone()
    flip = torch.rand(b, t, generator=g) < 0.2
    noisy[flip] = torch.randint(2, vocab, (int(flip.sum()),), generator=g)
    return noisy, clean, flip.float()


class Trainer:
    def __init__(self, model, retain):
        self.model = model
        self.retain = retain
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        self.gama = 0.8

    def step(self, noisy, clean, flip):
        logits, p = self.model(noisy)
        loss_c = F.cross_entropy(logits.transpose(1, 2), clean)
        loss_d = F.binary_cross_entropy(p, flip)
        loss = self.gama * loss_c + (1 - self.gama) * loss_d
        self.opt.zero_grad()
        if self.retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        self.opt.step()
        return loss.item()


def run(cache_mask, retain, steps=15):
    torch.manual_seed(0)
    model = SoftMaskedCorrector(cache_mask=cache_mask)
    trainer = Trainer(model, retain)
    hits = []
    if cache_mask:
        model.mask_e.register_hook(lambda g: hits.append(1))
    g = torch.Generator().manual_seed(0)
    hist = [trainer.step(*make_batch(g)) for _ in range(steps)]
    return model, hits, hist


if __name__ == "__main__":
    # 1) without retain_graph the cached mask embedding breaks the second step
    err = None
    try:
        run(cache_mask=True, retain=False, steps=2)
    except RuntimeError as e:
        err = str(e)
    print("no retain_graph:", (err or "no error")[:80])
    assert err is not None and "backward through the graph a second time" in err

    # 2) the retain_graph "fix": every step re-enters the graph built in __init__
    model, hits, hist = run(cache_mask=True, retain=True)
    live = model.embedding.weight[MASK_ID].detach()
    stale_gap = (model.mask_e.detach().view(-1) - live).abs().max().item()
    print("retain_graph: hook hits", len(hits), "stale gap", stale_gap,
          "loss", hist[0], "->", hist[-1])
    assert len(hits) == len(hist)            # init-time graph reached on every step
    assert model.mask_e.grad_fn is not None  # still attached to that old graph
    assert stale_gap > 1e-2                  # forward mixes in an outdated [MASK] vector

    # 3) computing the mask vector in forward needs no retained graph
    model_fix, _, hist_fix = run(cache_mask=False, retain=False)
    print("fixed: loss", hist_fix[0], "->", hist_fix[-1])
    assert hist_fix[-1] < hist_fix[0]
    print("OK")
