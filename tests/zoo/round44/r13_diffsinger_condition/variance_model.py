"""Tiny DiffSinger-like variance model: a pitch diffusion head and a variance head share one condition."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PitchDiffusion(nn.Module):
    """Denoiser trained with the epsilon objective, conditioned by a 1x1 conv on the encoder output."""

    def __init__(self, hidden, steps=50):
        super().__init__()
        self.cond_proj = nn.Conv1d(hidden, hidden, 1)
        self.in_proj = nn.Conv1d(1, hidden, 1)
        self.out = nn.Conv1d(hidden, 1, 1)
        betas = torch.linspace(1e-4, 0.05, steps)
        self.register_buffer("alpha_bar", torch.cumprod(1 - betas, 0))

    def forward(self, cond, gt_pitch):
        b = gt_pitch.size(0)
        t = torch.randint(0, self.alpha_bar.numel(), (b,))
        ab = self.alpha_bar[t].view(b, 1, 1)
        x0 = gt_pitch.unsqueeze(1)
        noise = torch.randn_like(x0)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        h = torch.tanh(self.cond_proj(cond.transpose(1, 2)) + self.in_proj(x_t))
        return F.mse_loss(self.out(h), noise)


class VarianceModel(nn.Module):
    def __init__(self, vocab=20, hidden=16, n_var=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.pitch_predictor = PitchDiffusion(hidden)
        self.pitch_embed = nn.Linear(1, hidden)
        self.variance_predictor = nn.Linear(hidden, n_var)

    def forward(self, tokens, pitch, variances):
        condition = self.encoder(self.embed(tokens))
        pitch_cond = condition
        pitch_loss = self.pitch_predictor(pitch_cond, pitch)
        condition += self.pitch_embed(pitch[:, :, None])
        var_pred = self.variance_predictor(condition)
        var_loss = F.mse_loss(var_pred, variances)
        return pitch_loss + var_loss


class VarianceModelFixed(VarianceModel):
    def forward(self, tokens, pitch, variances):
        condition = self.encoder(self.embed(tokens))
        pitch_loss = self.pitch_predictor(condition, pitch)
        var_cond = condition + self.pitch_embed(pitch[:, :, None])
        var_loss = F.mse_loss(self.variance_predictor(var_cond), variances)
        return pitch_loss + var_loss
