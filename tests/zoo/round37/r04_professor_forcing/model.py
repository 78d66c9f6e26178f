"""GRU next-step predictor used to score anomalies in a multivariate series."""
import torch
import torch.nn as nn


class StepPredictor(nn.Module):
    def __init__(self, n_feat=3, hid=16):
        super().__init__()
        self.hid = hid
        self.enc = nn.Linear(n_feat, hid)
        self.rnn = nn.GRU(hid, hid)
        self.dec = nn.Linear(hid, n_feat)

    def init_hidden(self, bsz):
        return torch.zeros(1, bsz, self.hid)

    def repackage_hidden(self, h):
        """Cut the carried state from the previous chunk (truncated BPTT)."""
        return h.detach()

    def forward(self, x, hidden):
        emb = torch.tanh(self.enc(x))
        out, hidden = self.rnn(emb, hidden)
        return self.dec(out), hidden, out


def free_running(model, first_input, steps, hidden):
    outs, hids = [], []
    cur = first_input
    for _ in range(steps):
        cur, hidden, hid = model(cur, hidden)
        outs.append(cur)
        hids.append(hid)
    return torch.cat(outs, 0), torch.cat(hids, 0)
