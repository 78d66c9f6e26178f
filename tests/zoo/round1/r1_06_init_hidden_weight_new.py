"""expect: none
dynamic: dismiss
source: https://github.com/awaelchli/pytorch-char-rnnlm/blob/master/model.py

A character LSTM whose `init_hidden` allocates the initial state from a parameter's storage type with `weight.new(...).zero_()` (the old word_language_model idiom) and a GRU head that uses `weight.new_zeros(...)`. Those are fresh zero tensors, not edits of anything autograd saved, and the hidden state is repackaged with `.detach()` between chunks (truncated backpropagation through time). Every parameter trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CharLM(nn.Module):
    def __init__(self, vocab=20, ninp=16, nhid=24, nlayers=2):
        super().__init__()
        self.encoder = nn.Embedding(vocab, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers)
        self.refine = nn.GRUCell(nhid, nhid)
        self.decoder = nn.Linear(nhid, vocab)
        self.nhid, self.nlayers = nhid, nlayers

    def init_hidden(self, bsz):
        weight = next(self.parameters()).data
        return (weight.new(self.nlayers, bsz, self.nhid).zero_(),
                weight.new(self.nlayers, bsz, self.nhid).zero_())

    def forward(self, tokens, hidden):
        out, hidden = self.rnn(self.encoder(tokens), hidden)
        g = self.refine.weight_hh.new_zeros(out.size(1), self.nhid)
        steps = []
        for t in range(out.size(0)):
            g = self.refine(out[t], g)
            steps.append(g)
        return self.decoder(torch.stack(steps)), hidden


model = CharLM()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
corpus = torch.randint(0, 20, (40, 4))
hidden = model.init_hidden(4)
for i in range(0, 32, 8):
    inp, tgt = corpus[i:i + 8], corpus[i + 1:i + 9]
    hidden = tuple(h.detach() for h in hidden)
    logits, hidden = model(inp, hidden)
    loss = F.cross_entropy(logits.reshape(-1, 20), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()

print("encoder grad norm", model.encoder.weight.grad.norm().item())
assert model.encoder.weight.grad.norm() > 0
