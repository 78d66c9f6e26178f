"""Self-critical reward: sampled caption score minus greedy caption score (NumPy)."""
import numpy as np
import torch
import torch.nn as nn


def array_to_str(arr):
    out = []
    for tok in arr:
        if tok == 0:
            break
        out.append(str(tok))
    return ' '.join(out)


def caption_score(cand, refs):
    # stand-in for CIDEr-D: clipped unigram precision against the references
    c = cand.split()
    if not c:
        return 0.0
    best = 0.0
    for r in refs:
        rt = r.split()
        hits = sum(min(c.count(w), rt.count(w)) for w in set(c))
        best = max(best, hits / max(len(c), len(rt)))
    return best


def get_self_critical_reward(model, feats, gts, gen_result):
    batch_size = gen_result.size(0)
    model.eval()
    with torch.no_grad():
        greedy_res, _ = model.sample(feats, greedy=True)
    model.train()

    gen_result = gen_result.cpu().numpy()
    greedy_res = greedy_res.cpu().numpy()
    scores = np.zeros(2 * batch_size)
    for i in range(batch_size):
        scores[i] = caption_score(array_to_str(gen_result[i]), gts[i])
        scores[batch_size + i] = caption_score(array_to_str(greedy_res[i]), gts[i])
    adv = scores[:batch_size] - scores[batch_size:]
    rewards = np.repeat(adv[:, np.newaxis], gen_result.shape[1], 1)
    return rewards, scores[batch_size:].mean()


class RewardCriterion(nn.Module):
    def forward(self, logprobs, seq, reward):
        mask = (seq > 0).float()
        mask = torch.cat([mask.new_ones(mask.size(0), 1), mask[:, :-1]], 1)
        output = -logprobs * reward * mask
        return output.sum() / mask.sum()
