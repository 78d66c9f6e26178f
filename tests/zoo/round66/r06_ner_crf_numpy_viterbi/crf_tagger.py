"""BiLSTM-CRF sequence tagger (flair-style): CRF loss by the forward algorithm in torch,
decoding by Viterbi in NumPy, plus per-token label distributions for downstream modules."""
import numpy as np
import torch
import torch.nn as nn

START, STOP = 0, 1


def log_sum_exp(x, dim):
    m = x.max(dim=dim, keepdim=True).values
    return (m + (x - m).exp().sum(dim=dim, keepdim=True).log()).squeeze(dim)


class CRFTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, emb_dim=16, hidden=16):
        super().__init__()
        self.num_tags = num_tags  # includes START and STOP
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.linear = nn.Linear(2 * hidden, num_tags)
        trans = torch.randn(num_tags, num_tags) * 0.1
        trans[START, :] = -10000.0  # nothing transitions into START
        trans[:, STOP] = -10000.0   # nothing leaves STOP
        self.transitions = nn.Parameter(trans)  # transitions[to, from]

    def emissions(self, tokens):
        h, _ = self.rnn(self.embedding(tokens))
        return self.linear(h)

    def _forward_alg(self, feats):
        alpha = torch.full((self.num_tags,), -10000.0)
        alpha[START] = 0.0
        for feat in feats:
            alpha = log_sum_exp(alpha.unsqueeze(0) + self.transitions, dim=1) + feat
        return log_sum_exp(alpha + self.transitions[STOP], dim=0)

    def _score_sentence(self, feats, tags):
        tags = torch.cat([torch.tensor([START]), tags])
        score = torch.zeros(())
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return score + self.transitions[STOP, tags[-1]]

    def neg_log_likelihood(self, tokens, tags):
        feats = self.emissions(tokens.unsqueeze(0))[0]
        return self._forward_alg(feats) - self._score_sentence(feats, tags)

    def _viterbi_decode(self, feats):
        """NumPy Viterbi: best path and, for every position, a softmax over the
        max-product scores (the per-token confidences shown to the user)."""
        feats = feats.detach().cpu().numpy()
        trans = self.transitions.detach().cpu().numpy()
        forward_var = np.full(self.num_tags, -10000.0)
        forward_var[START] = 0.0
        backpointers, per_token = [], []
        for feat in feats:
            cand = forward_var[None, :] + trans
            backpointers.append(cand.argmax(1))
            forward_var = cand.max(1) + feat
            z = np.exp(forward_var - forward_var.max())
            per_token.append(z / z.sum())
        best = int((forward_var + trans[STOP]).argmax())
        path = [best]
        for bp in reversed(backpointers[1:]):
            best = int(bp[best])
            path.append(best)
        return path[::-1], np.stack(per_token)

    def obtain_label_distribution(self, tokens):
        feats = self.emissions(tokens.unsqueeze(0))[0]
        path, confidences = self._viterbi_decode(feats)
        return path, torch.tensor(confidences, dtype=torch.float32)

    def label_distribution_torch(self, tokens):
        """The same max-product recursion, kept inside autograd."""
        feats = self.emissions(tokens.unsqueeze(0))[0]
        forward_var = torch.full((self.num_tags,), -10000.0)
        forward_var[START] = 0.0
        per_token = []
        for feat in feats:
            forward_var = (forward_var.unsqueeze(0) + self.transitions).max(1).values + feat
            per_token.append(torch.softmax(forward_var, dim=0))
        return torch.stack(per_token)
