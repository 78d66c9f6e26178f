"""
expect: GL001 main.py:28
dynamic: confirm
source: kinds check 21, kind 1 (written for this check)

Keyword spotting: the learnable conv front end (frontend.py) computes its features
under torch.no_grad(), then a GRU keyword classifier trains on them; both networks
sit in one dict and one SGD optimizer. The front end has no loss of its own, so it
never trains. The asserts show the front end's grads stay None and its weights
unchanged while the classifier's move, and that the same loss computed without
no_grad reaches every front-end parameter.
"""
import torch
import torch.nn.functional as F

from frontend import ConvFrontend, KeywordClassifier


def build():
    nets = {"frontend": ConvFrontend(), "classifier": KeywordClassifier()}
    params = [p for net in nets.values() for p in net.parameters()]
    return nets, torch.optim.SGD(params, lr=0.05, momentum=0.9)


def train_step(nets, opt, wav, word):
    opt.zero_grad()
    with torch.no_grad():
        feats = nets["frontend"](wav)
    logits = nets["classifier"](feats)
    loss = F.cross_entropy(logits, word)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(1)
    wav, word = torch.randn(8, 1600), torch.randint(0, 5, (8,))
    nets, opt = build()
    fe, clf = nets["frontend"], nets["classifier"]
    fe0 = {k: v.clone() for k, v in fe.state_dict().items()}
    clf0 = {k: v.clone() for k, v in clf.state_dict().items()}
    for _ in range(4):
        train_step(nets, opt, wav, word)
    assert all(p.grad is None for p in fe.parameters())
    assert all(torch.equal(v, fe0[k]) for k, v in fe.state_dict().items())
    assert any(not torch.equal(v, clf0[k]) for k, v in clf.state_dict().items())
    # fixed variant: without no_grad the same loss reaches the front end
    opt.zero_grad()
    F.cross_entropy(clf(fe(wav)), word).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fe.parameters())
    print("ok: the front end is starved by no_grad")
