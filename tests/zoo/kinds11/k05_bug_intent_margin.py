"""
expect: GL001 37
dynamic: confirm
source: kinds check 11, kind 5

An intent classifier for bag-of-words utterances is trained with cross-entropy
plus a margin penalty meant to push the top intent score away from the runner-up.
The scores are detached before topk, and the penalty is computed from the topk
VALUES of those detached scores. The values carry no autograd history, so the
margin term, although positive, adds nothing to any parameter gradient: the
gradients of ce + margin equal those of ce alone. The detach of the scores is
the cut through which the margin term was meant to train the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class IntentNet(nn.Module):
    def __init__(self, vocab=100, dim=24, n_intents=7):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.out = nn.Linear(dim, n_intents)

    def forward(self, token_ids):
        return self.out(torch.tanh(self.bag(token_ids)))


def main():
    torch.manual_seed(9)
    net = IntentNet()
    utterances = torch.randint(0, 100, (10, 9))
    intents = torch.randint(0, 7, (10,))

    scores = net(utterances)
    ce = F.cross_entropy(scores, intents)
    ranked = scores.detach()
    top_vals, top_ids = ranked.topk(2, dim=1)
    margin = F.relu(3.0 - (top_vals[:, 0] - top_vals[:, 1])).mean()
    loss = ce + 0.5 * margin
    assert margin.item() > 0 and not margin.requires_grad

    params = list(net.parameters())
    g_total = torch.autograd.grad(loss, params, retain_graph=True)
    g_ce = torch.autograd.grad(ce, params)
    for a, b in zip(g_total, g_ce):
        assert torch.equal(a, b), "margin term changed a gradient"
    print("k05 bug: margin penalty %.3f added no gradient" % margin.item())


if __name__ == "__main__":
    main()
