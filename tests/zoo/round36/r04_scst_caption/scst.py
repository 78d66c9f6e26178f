import numpy as np
import torch
import torch.nn as nn


class TinyCaptioner(nn.Module):
    def __init__(self, feat_dim=8, vocab=6, hid=16):
        super().__init__()
        self.init_h = nn.Linear(feat_dim, hid)
        self.embed = nn.Embedding(vocab, hid)
        self.cell = nn.GRUCell(hid, hid)
        self.out = nn.Linear(hid, vocab)

    def decode(self, feats, seq_len, greedy):
        h = torch.tanh(self.init_h(feats))
        tok = torch.zeros(feats.shape[0], dtype=torch.long)
        seqs, logps = [], []
        for _ in range(seq_len):
            h = self.cell(self.embed(tok), h)
            logp = torch.log_softmax(self.out(h), dim=-1)
            if greedy:
                tok = logp.argmax(-1)
            else:
                tok = torch.multinomial(logp.exp(), 1).squeeze(1)
            seqs.append(tok)
            logps.append(logp.gather(1, tok.unsqueeze(1)).squeeze(1))
        return torch.stack(seqs, 1), torch.stack(logps, 1)


def overlap_score(seqs, refs):
    """Stand-in for CIDEr: runs in numpy on token ids, like the real scorer."""
    seqs = seqs.cpu().numpy()
    return np.array([len(set(s.tolist()) & set(r.tolist())) / len(set(r.tolist()))
                     for s, r in zip(seqs, refs)], dtype=np.float32)


def scst_loss(model, feats, refs, seq_len=5):
    sample_seq, sample_logp = model.decode(feats, seq_len, greedy=False)
    model.eval()
    with torch.no_grad():
        greedy_seq, _ = model.decode(feats, seq_len, greedy=True)
    model.train()
    reward = overlap_score(sample_seq, refs) - overlap_score(greedy_seq, refs)
    advantage = torch.from_numpy(reward).unsqueeze(1)
    loss = -(sample_logp * advantage).mean()
    return loss, float(reward.mean())
