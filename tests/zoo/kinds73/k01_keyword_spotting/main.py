"""
expect: GL001 main.py:31
dynamic: confirm
source: none, invented

Audio / keyword spotting. The spotter model (spotter.py) exposes `keyword_logprobs`, the
calibrated log-probabilities the streaming detector uses at inference, and it is decorated
`@torch.no_grad()`. The training script builds the model through its own factory
`build_spotter` and adds a "calibration" term, the negative log-likelihood of the true keyword
under those calibrated log-probabilities, to the cross-entropy loss via the helper
`calibration_term`. Because the decorated method runs without autograd, the term has no
grad_fn: it shows up in the logged loss value but contributes nothing to the gradient, so the
temperature-scaled objective the author wanted is silently ignored. The asserts show the term
does not require grad, that the gradients with and without the term are identical, and that a
fixed variant (calling the undecorated computation) produces a term with a gradient that
changes the parameter gradients and still trains.
"""
import torch
import torch.nn.functional as F

from spotter import KeywordSpotter


def build_spotter(n_keywords, temperature):
    net = KeywordSpotter(n_mels=20, n_keywords=n_keywords)
    net.set_temperature(temperature)
    return net


def calibration_term(net, mels, labels):
    logp = net.keyword_logprobs(mels)
    return F.nll_loss(logp, labels)


def calibration_term_fixed(net, mels, labels):
    logits = net(mels) / net.temperature
    return F.nll_loss(F.log_softmax(logits, dim=-1), labels)


def make_batch(n=32, n_keywords=6):
    labels = torch.randint(0, n_keywords, (n,))
    mels = torch.randn(n, 20, 50)
    # keyword identity leaves a trace in a few mel bands
    mels[torch.arange(n), labels, :] += 1.5
    return mels, labels


def grads_of(net):
    return [p.grad.clone() for p in net.parameters()]


def train(term_fn, steps=60, seed=0):
    torch.manual_seed(seed)
    net = build_spotter(n_keywords=6, temperature=0.5)
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    first = last = None
    for step in range(steps):
        mels, labels = make_batch()
        ce = F.cross_entropy(net(mels), labels)
        loss = ce + 0.5 * term_fn(net, mels, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if first is None:
            first = loss.item()
        last = loss.item()
    return net, first, last


def main():
    torch.manual_seed(1)
    net = build_spotter(n_keywords=6, temperature=0.5)
    mels, labels = make_batch()

    # buggy path: the calibration term is a constant as far as autograd is concerned
    term = calibration_term(net, mels, labels)
    assert not term.requires_grad and term.grad_fn is None

    net.zero_grad()
    (F.cross_entropy(net(mels), labels) + 0.5 * calibration_term(net, mels, labels)).backward()
    g_with = grads_of(net)
    net.zero_grad()
    F.cross_entropy(net(mels), labels).backward()
    g_without = grads_of(net)
    assert all(torch.equal(a, b) for a, b in zip(g_with, g_without)), "term should add nothing"

    # fixed variant: the term carries a gradient and changes the update
    net.zero_grad()
    (F.cross_entropy(net(mels), labels) + 0.5 * calibration_term_fixed(net, mels, labels)).backward()
    g_fixed = grads_of(net)
    assert calibration_term_fixed(net, mels, labels).requires_grad
    assert any(not torch.allclose(a, b) for a, b in zip(g_fixed, g_without))

    _, first, last = train(calibration_term)
    _, ffirst, flast = train(calibration_term_fixed)
    assert flast < ffirst * 0.5, (ffirst, flast)
    print(f"buggy loss {first:.3f}->{last:.3f}; fixed loss {ffirst:.3f}->{flast:.3f}")
    print("k01 OK: calibration term from @torch.no_grad() method has no gradient")


if __name__ == "__main__":
    main()
