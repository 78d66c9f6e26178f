"""
expect: GL001 matcher.py:28
dynamic: confirm
source: none, invented

HR / recruiting. A two-tower matcher ranks candidates for job postings from
bag-of-skills vectors, trained with an InfoNCE-style loss over in-batch hard
negatives. ``SkillMatcher.hard_negative_scores`` is decorated ``@torch.no_grad()``
(mining is meant to be graph-free), but ``compute_loss`` uses the *scores* it
returns as the negative logits of the loss, so the loss never pushes non-matching
pairs apart; the training loop in train.py backpropagates only the positive term and
the towers drift toward a collapsed embedding. The asserts show the negative logits
carry no graph, the model gradient equals that of the loss with negatives explicitly
detached, and that a variant that mines indices without grad but re-scores them with
grad reaches much higher recall@1 on held-out pairs.
"""
import torch
import torch.nn.functional as F

from matcher import SkillMatcher
from train import fit, recall_at_1


def synthetic_market(n_pairs=768, n_skills=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    jobs = (torch.rand(n_pairs, n_skills, generator=g) < 0.12).float()
    keep = (torch.rand(n_pairs, n_skills, generator=g) < 0.8).float()
    extra = (torch.rand(n_pairs, n_skills, generator=g) < 0.04).float()
    cands = (jobs * keep + extra).clamp(max=1.0)
    return jobs, cands


class MinedThenScoredMatcher(SkillMatcher):
    """Fixed variant: mine hard negatives without grad, score them with grad."""

    def compute_loss(self, job_skills, cand_skills):
        job_emb = self.job_tower(job_skills)
        cand_emb = self.cand_tower(cand_skills)
        scores = job_emb @ cand_emb.T / self.temperature
        with torch.no_grad():
            masked = scores.detach().clone().fill_diagonal_(float("-inf"))
            neg_idx = masked.topk(min(self.n_hard, len(scores) - 1), dim=1).indices
        logits = torch.cat([scores.diagonal().unsqueeze(1), scores.gather(1, neg_idx)], dim=1)
        return F.cross_entropy(logits, torch.zeros(len(logits), dtype=torch.long))


def flat_grad(model, loss):
    model.zero_grad()
    loss.backward()
    return torch.cat([p.grad.flatten().clone() for p in model.parameters() if p.grad is not None])


def main():
    torch.set_num_threads(1)
    jobs, cands = synthetic_market()
    train_j, train_c, test_j, test_c = jobs[:640], cands[:640], jobs[640:], cands[640:]

    torch.manual_seed(0)
    model = SkillMatcher(n_skills=jobs.shape[1])
    j, c = model.job_tower(train_j[:64]), model.cand_tower(train_c[:64])
    assert not model.hard_negative_scores(j, c).requires_grad

    # gradient of the shipped loss == gradient with the negatives as constants
    g_buggy = flat_grad(model, model.compute_loss(train_j[:64], train_c[:64]))
    j, c = model.job_tower(train_j[:64]), model.cand_tower(train_c[:64])
    pos = (j * c).sum(-1, keepdim=True) / model.temperature
    neg = (j @ c.T / model.temperature).fill_diagonal_(float("-inf")).topk(model.n_hard, 1).values.detach()
    g_const = flat_grad(model, F.cross_entropy(torch.cat([pos, neg], 1), torch.zeros(64, dtype=torch.long)))
    assert torch.allclose(g_buggy, g_const, atol=1e-6)

    fit(model, train_j, train_c, epochs=25)
    buggy_recall = recall_at_1(model, test_j, test_c)

    torch.manual_seed(0)
    fixed = MinedThenScoredMatcher(n_skills=jobs.shape[1])
    g_fixed = flat_grad(fixed, fixed.compute_loss(train_j[:64], train_c[:64]))
    assert not torch.allclose(g_fixed, g_buggy, atol=1e-4), "negatives now push pairs apart"
    fit(fixed, train_j, train_c, epochs=25)
    fixed_recall = recall_at_1(fixed, test_j, test_c)

    print("held-out recall@1: buggy %.3f  fixed %.3f (chance %.3f)" % (buggy_recall, fixed_recall, 1 / len(test_j)))
    assert fixed_recall > 0.6 and fixed_recall > buggy_recall + 0.3, (buggy_recall, fixed_recall)


if __name__ == "__main__":
    main()
