"""Tiny streaming RNN-T: a GRU encoder that keeps its state between chunks, a prediction net, a joiner and the RNN-T loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingEncoder(nn.Module):
    def __init__(self, n_feats, hidden):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden, batch_first=True)
        self.state = None

    def reset(self):
        self.state = None

    def detach_state(self):
        if self.state is not None:
            self.state = self.state.detach()

    def forward(self, chunk):
        out, self.state = self.rnn(chunk, self.state)
        return out[0]


class PredictionNet(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, labels):
        # prepend the blank symbol as start token
        start = torch.zeros(1, 1, dtype=torch.long)
        seq = torch.cat([start, labels.view(1, -1)], dim=1)
        out, _ = self.rnn(self.embed(seq))
        return out[0]


class Transducer(nn.Module):
    def __init__(self, n_feats=8, hidden=16, vocab=6):
        super().__init__()
        self.encoder = StreamingEncoder(n_feats, hidden)
        self.predictor = PredictionNet(vocab, hidden)
        self.enc_proj = nn.Linear(hidden, hidden)
        self.pred_proj = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, chunk, labels):
        enc = self.enc_proj(self.encoder(chunk))          # [T, H]
        pred = self.pred_proj(self.predictor(labels))     # [U+1, H]
        joint = torch.tanh(enc[:, None, :] + pred[None, :, :])
        return self.out(joint)                            # [T, U+1, V]


def rnnt_loss(logits, labels, blank=0):
    """Negative log-likelihood of one label sequence under the transducer lattice."""
    lp = F.log_softmax(logits, dim=-1)
    T, U1, _ = lp.shape
    alpha = [[None] * U1 for _ in range(T)]
    alpha[0][0] = lp.new_zeros(())
    for t in range(T):
        for u in range(U1):
            if t == 0 and u == 0:
                continue
            terms = []
            if t > 0:
                terms.append(alpha[t - 1][u] + lp[t - 1, u, blank])
            if u > 0:
                terms.append(alpha[t][u - 1] + lp[t, u - 1, labels[u - 1]])
            alpha[t][u] = torch.logsumexp(torch.stack(terms), dim=0)
    return -(alpha[T - 1][U1 - 1] + lp[T - 1, U1 - 1, blank])


def count_graph_nodes(tensor):
    """Number of autograd nodes reachable from tensor.grad_fn."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)
