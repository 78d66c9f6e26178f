"""Two-tower job/candidate matcher over bag-of-skills vectors."""
import torch
from torch import nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n_skills, dim):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(n_skills, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, skills):
        return F.normalize(self.proj(skills), dim=-1)


class SkillMatcher(nn.Module):
    def __init__(self, n_skills, dim=32, temperature=0.1, n_hard=8):
        super().__init__()
        self.job_tower = Tower(n_skills, dim)
        self.cand_tower = Tower(n_skills, dim)
        self.temperature = temperature
        self.n_hard = n_hard

    def forward(self, job_skills, cand_skills):
        """Match score for aligned (job, candidate) pairs."""
        return (self.job_tower(job_skills) * self.cand_tower(cand_skills)).sum(-1) / self.temperature

    @torch.no_grad()
    def hard_negative_scores(self, job_emb, cand_emb):
        """Scores of the n_hard most similar *non-matching* candidates in the batch."""
        scores = job_emb @ cand_emb.T / self.temperature
        scores.fill_diagonal_(float("-inf"))
        k = min(self.n_hard, scores.shape[1] - 1)
        return scores.topk(k, dim=1).values

    def compute_loss(self, job_skills, cand_skills):
        job_emb = self.job_tower(job_skills)
        cand_emb = self.cand_tower(cand_skills)
        pos = (job_emb * cand_emb).sum(-1, keepdim=True) / self.temperature
        neg = self.hard_negative_scores(job_emb, cand_emb)
        logits = torch.cat([pos, neg], dim=1)
        target = torch.zeros(len(logits), dtype=torch.long)
        return F.cross_entropy(logits, target)
