"""
expect: GL004 88
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/1840

A user ported the BiLSTM-CRF sequence-tagging tutorial to the GPU and saw memory grow until
out-of-memory; the maintainers pointed at `sum_log_likelihood += neg_log_likelihood`, a running
total kept for logging that holds on to the graph of every sentence seen so far. This program
trains a tiny BiLSTM-CRF tagger on random sentences with the same running total; it asserts the
number of autograd nodes reachable from the total grows with every sentence (every graph is kept
alive), while accumulating `.item()` keeps nothing, and that the tagger itself trains either way.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, TAGS, EMB, HID = 20, 4, 8, 8
START, STOP = TAGS, TAGS + 1


class BiLSTM_CRF(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HID // 2, bidirectional=True)
        self.hidden2tag = nn.Linear(HID, TAGS + 2)
        self.transitions = nn.Parameter(torch.randn(TAGS + 2, TAGS + 2))
        with torch.no_grad():
            self.transitions[START, :] = -1e4
            self.transitions[:, STOP] = -1e4

    def _features(self, sentence):
        out, _ = self.lstm(self.emb(sentence).view(len(sentence), 1, -1))
        return self.hidden2tag(out.view(len(sentence), HID))

    def _forward_alg(self, feats):
        alpha = torch.full((TAGS + 2,), -1e4)
        alpha[START] = 0.0
        for feat in feats:
            alpha = torch.logsumexp(alpha.unsqueeze(0) + self.transitions + feat.unsqueeze(1), dim=1)
        return torch.logsumexp(alpha + self.transitions[STOP], dim=0)

    def _score(self, feats, tags):
        tags = torch.cat([torch.tensor([START]), tags])
        score = torch.zeros(())
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return score + self.transitions[STOP, tags[-1]]

    def neg_log_likelihood(self, sentence, tags):
        feats = self._features(sentence)
        return self._forward_alg(feats) - self._score(feats, tags)


def n_nodes(t):
    if not torch.is_tensor(t) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


data = [(torch.randint(0, VOCAB, (6,)), torch.randint(0, TAGS, (6,))) for _ in range(8)]


def train(use_item):
    torch.manual_seed(1)
    model = BiLSTM_CRF()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    sum_log_likelihood = 0.0
    sizes, first, last = [], None, None
    for epoch in range(3):
        epoch_total = 0.0
        for sentence, tags in data:
            model.zero_grad()
            neg_log_likelihood = model.neg_log_likelihood(sentence, tags)
            neg_log_likelihood.backward()
            opt.step()
            if use_item:
                sum_log_likelihood += neg_log_likelihood.item()
            else:
                sum_log_likelihood += neg_log_likelihood
            sizes.append(n_nodes(sum_log_likelihood))
            epoch_total += neg_log_likelihood.item()
        epoch_mean = epoch_total / len(data)
        first = epoch_mean if first is None else first
        last = epoch_mean
    return sizes, first, last


sizes, first, last = train(use_item=False)
print(f"reported: graph nodes kept by the running total: {sizes[0]} -> {sizes[-1]}")
assert all(b > a for a, b in zip(sizes, sizes[1:])), "every sentence's graph stays alive"
assert last < first

sizes_fixed, first_f, last_f = train(use_item=True)
print(f"fixed: nodes kept {set(sizes_fixed)}, running mean {first_f:.2f} -> {last_f:.2f}")
assert set(sizes_fixed) == {0} and last_f < first_f
print("OK")
