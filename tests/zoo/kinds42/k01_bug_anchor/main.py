"""
expect: GL001 anchoring.py:15
dynamic: confirm
source: kinds check 42, kind 1

A house-price regressor trained on an "old" market is fine-tuned on a shifted
"new" market through AnchoredFinetuner, a plain helper class that owns an SGD
optimizer over self.model.parameters() and adds an L2 drift penalty pulling the
weights back to a reference snapshot passed in as an argument. The penalty is
built from self.model.state_dict(), whose tensors are detached copies, so it
carries no graph: the asserts show the penalty does not require grad and that
fine-tuning with a huge anchoring strength ends with exactly the same weights as
fine-tuning with no anchoring at all, whereas a version reading live parameters
(state_dict(keep_vars=True)) stays much closer to the reference.
"""
import copy

import torch
import torch.nn as nn

from anchoring import AnchoredFinetuner


def make_market(n, shift, gen):
    x = torch.randn(n, 6, generator=gen)
    w = torch.linspace(-1.0, 1.0, 6) + shift
    return x, (x @ w).unsqueeze(1) + 0.1 * torch.randn(n, 1, generator=gen)


def finetune(base, reference, x, y, strength, live=False):
    model = copy.deepcopy(base)
    tuner = AnchoredFinetuner(model, lr=0.05, strength=strength)
    if live:  # the intended behaviour, for comparison only
        def live_penalty(ref_weights):
            cur = tuner.model.state_dict(keep_vars=True)
            return tuner.strength * sum((cur[k] - v).pow(2).sum() for k, v in ref_weights.items())
        tuner.drift_penalty = live_penalty
    for _ in range(60):
        tuner.step(x, y, reference)
    return model, tuner


def distance(model, reference):
    sd = model.state_dict()
    return sum((sd[k] - v).pow(2).sum().item() for k, v in reference.items())


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    base = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    x_old, y_old = make_market(256, 0.0, gen)
    opt = torch.optim.Adam(base.parameters(), lr=0.01)
    for _ in range(150):
        opt.zero_grad()
        nn.functional.mse_loss(base(x_old), y_old).backward()
        opt.step()
    reference = {k: v.clone() for k, v in base.state_dict().items()}

    x_new, y_new = make_market(256, 1.5, gen)
    plain, _ = finetune(base, reference, x_new, y_new, strength=0.0)
    anchored, tuner = finetune(base, reference, x_new, y_new, strength=5.0)

    pen = tuner.drift_penalty(reference)
    assert not pen.requires_grad, "penalty unexpectedly carries a graph"
    for p, q in zip(plain.parameters(), anchored.parameters()):
        assert torch.equal(p, q), "anchoring changed the weights"

    intended, _ = finetune(base, reference, x_new, y_new, strength=5.0, live=True)
    d_plain, d_intended = distance(plain, reference), distance(intended, reference)
    assert d_intended < 0.5 * d_plain, (d_plain, d_intended)
    print(f"drift without anchor {d_plain:.3f}, with (broken) anchor identical; "
          f"live anchor drift {d_intended:.3f}")


if __name__ == "__main__":
    main()
