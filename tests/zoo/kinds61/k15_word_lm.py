"""
expect: GL004 92
dynamic: confirm
source: none, invented

A word-level LSTM language model trained in the style of the classic word-language-model example: the
corpus is batchified into columns, the loop walks it in `bptt`-long chunks, carries the LSTM hidden state
from chunk to chunk through `repackage_hidden`, calls `loss.backward(retain_graph=True)`, clips and
applies a hand-written SGD step through `p.data.add_`. The helper is supposed to start each chunk from a
history-free copy of (h, c), but it only calls `v.detach()` on each tensor and throws the result away,
returning the original, still-connected tensors. Because the update goes through `.data`, no version error
appears; instead every backward walks back through all earlier chunks, so the graph and the cost of each
step grow with the position in the corpus and old chunks are back-propagated again and again. The asserts
show the autograd graph of the loss growing chunk after chunk; `train_epoch_v2`, using a helper that
returns the detached tensors, keeps a constant graph size and the model's loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def repackage_hidden(h):
    for v in h:
        v.detach()
    return h


def repackage_hidden_v2(h):
    return tuple(v.detach() for v in h)


def count_nodes(loss):
    seen, stack = set(), [loss.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class WordLM(nn.Module):
    def __init__(self, ntoken, ninp=32, nhid=48):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid

    def init_hidden(self, bsz):
        return torch.zeros(1, bsz, self.nhid), torch.zeros(1, bsz, self.nhid)

    def forward(self, src, hidden):
        output, hidden = self.rnn(self.encoder(src), hidden)
        return self.decoder(output), hidden


def make_corpus(n_words=2400, vocab=30):
    # a first-order Markov "language": each word has two likely successors
    g = torch.Generator().manual_seed(7)
    succ = torch.randint(0, vocab, (vocab, 2), generator=g)
    words = [0]
    for _ in range(n_words - 1):
        words.append(int(succ[words[-1], int(torch.rand(1, generator=g) < 0.3)]))
    return torch.tensor(words), vocab


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def train_epoch(model, train_data, ntokens, bptt=12, lr=2.0, clip=0.25):
    hidden = model.init_hidden(train_data.size(1))
    sizes, losses = [], []
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = F.cross_entropy(output.view(-1, ntokens), targets.reshape(-1))
        sizes.append(count_nodes(loss))
        loss.backward(retain_graph=True)
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
    return sizes, losses


def train_epoch_v2(model, train_data, ntokens, bptt=12, lr=2.0, clip=0.25):
    hidden = model.init_hidden(train_data.size(1))
    sizes, losses = [], []
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden_v2(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = F.cross_entropy(output.view(-1, ntokens), targets.reshape(-1))
        sizes.append(count_nodes(loss))
        loss.backward(retain_graph=True)
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
    return sizes, losses


if __name__ == "__main__":
    words, ntokens = make_corpus()
    train_data = batchify(words, 8)

    torch.manual_seed(0)
    sizes, _ = train_epoch(WordLM(ntokens), train_data, ntokens)
    assert all(b > a for a, b in zip(sizes[1:-1], sizes[2:-1])), sizes[:6]
    assert sizes[-2] > 5 * sizes[1]

    torch.manual_seed(0)
    model = WordLM(ntokens)
    first_sizes, first_losses = train_epoch_v2(model, train_data, ntokens)
    for _ in range(3):
        sizes, losses = train_epoch_v2(model, train_data, ntokens)
    assert max(first_sizes[:-1]) <= min(first_sizes[:-1]) + 1
    assert sum(losses) < 0.8 * sum(first_losses)
    print("k15: chunk graphs stay bounded only when the hidden state is really detached")
