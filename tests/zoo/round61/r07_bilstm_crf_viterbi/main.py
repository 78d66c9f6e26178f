"""
expect: none
dynamic: dismiss
source: https://github.com/Gene1974/biLSTM-CRF/blob/080a8e1661dc0685c4d8a8dbd003bbff0b0c244b/crf.py

A BiLSTM-CRF named-entity tagger (CRF ported from AllenNLP) trains on the
negative log-likelihood from forward() and decodes with viterbi_tags(). The
decoder is full of things that look like cut gradients: it takes
logits.data and mask.data, fills a plain torch.Tensor transition matrix
in place, copies self.transitions in through .data and the start/end
transitions through .detach(), and reuses one tag_sequence buffer with
fill_() for every sentence. None of this is wrong: decoding is a discrete
argmax that is never back-propagated, and the training loss uses the
parameters directly. The asserts train a few steps, check that the LSTM,
emission layer and all three CRF transition parameters get non-zero gradients
and change, that running viterbi_tags between backward() and step() leaves the
gradients bit-identical, and that decoded paths have the sentence lengths and
agree with the gold tags better than chance on this easy synthetic task.
"""
import torch
import torch.nn as nn

from crf import ConditionalRandomField

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, NUM_TAGS, SEQ = 20, 4, 7


class BiLSTMCRF(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(2 * dim, NUM_TAGS)
        self.crf = ConditionalRandomField(NUM_TAGS)

    def emissions(self, words):
        out, _ = self.lstm(self.emb(words))
        return self.hidden2tag(out)

    def loss(self, words, tags, mask):
        return -self.crf(self.emissions(words), tags, mask)

    def decode(self, words, mask):
        return self.crf.viterbi_tags(self.emissions(words), mask)


def make_batch(n=16):
    words = torch.randint(0, VOCAB, (n, SEQ))
    tags = words % NUM_TAGS                      # tag is a function of the word
    lengths = torch.randint(4, SEQ + 1, (n,))
    mask = (torch.arange(SEQ)[None, :] < lengths[:, None]).long()
    return words, tags * mask, mask


model = BiLSTMCRF()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
crf_params = [model.crf.transitions, model.crf.start_transitions, model.crf.end_transitions]
before = [p.detach().clone() for p in crf_params]
for step in range(30):
    words, tags, mask = make_batch()
    opt.zero_grad()
    model.loss(words, tags, mask).backward()
    grads = [p.grad.clone() for p in model.parameters()]
    paths = model.decode(words, mask)            # decoding between backward and step
    assert all(torch.equal(g, p.grad) for g, p in zip(grads, model.parameters()))
    opt.step()

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
assert all(not torch.equal(b, p) for b, p in zip(before, crf_params))
words, tags, mask = make_batch(64)
paths = model.decode(words, mask)
assert [len(p) for p, _ in paths] == mask.sum(1).tolist()
correct = sum((torch.tensor(p) == tags[i, :len(p)]).sum().item() for i, (p, _) in enumerate(paths))
assert correct / mask.sum().item() > 0.6
print("r07 ok: CRF trains through forward(); .data/.detach() Viterbi decoding is inert")
