import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyWav2Vec(nn.Module):
    """Stand-in for a pretrained speech encoder that is meant to be fine-tuned."""

    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv1d(1, dim, kernel_size=8, stride=4)
        self.proj = nn.Linear(dim, dim)

    def forward(self, wavs):
        h = torch.relu(self.conv(wavs.unsqueeze(1)))
        return self.proj(h.transpose(1, 2))


class ASRBrain:
    """Recipe-style trainer: wav2vec front end, a small encoder, a CTC head and
    one optimizer per part (the wav2vec one with a smaller learning rate)."""

    def __init__(self, n_tokens=6, dim=16, freeze_wav2vec=False):
        self.wav2vec = TinyWav2Vec(dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.ctc_lin = nn.Linear(dim, n_tokens)
        self.freeze_wav2vec = freeze_wav2vec
        self.wav2vec_opt = torch.optim.Adam(self.wav2vec.parameters(), lr=1e-3)
        self.model_opt = torch.optim.Adam(list(self.enc.parameters()) +
                                          list(self.ctc_lin.parameters()), lr=1e-2)

    def compute_forward(self, wavs):
        feats = self.wav2vec(wavs)
        feats = feats.detach()
        x, _ = self.enc(feats)
        return F.log_softmax(self.ctc_lin(x), dim=-1)

    def compute_objectives(self, logp, tokens, tok_lens):
        in_lens = torch.full((logp.shape[0],), logp.shape[1], dtype=torch.long)
        return F.ctc_loss(logp.transpose(0, 1), tokens, in_lens, tok_lens, blank=0)

    def fit_batch(self, wavs, tokens, tok_lens):
        logp = self.compute_forward(wavs)
        loss = self.compute_objectives(logp, tokens, tok_lens)
        loss.backward()
        if not self.freeze_wav2vec:
            self.wav2vec_opt.step()
        self.model_opt.step()
        self.wav2vec_opt.zero_grad()
        self.model_opt.zero_grad()
        return loss.detach()
