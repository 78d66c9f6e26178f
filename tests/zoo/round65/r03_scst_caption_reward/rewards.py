"""Self-critical reward: score of a sampled caption minus score of the greedy caption."""
import numpy as np
import torch


def caption_score(seq, gts):
    """Stand-in for CIDEr-D: fraction of positions that match the reference caption."""
    return (seq == gts).mean(axis=1)


def get_self_critical_reward(model, fc_feats, gts, gen_result):
    batch_size = gen_result.size(0)
    model.eval()
    with torch.no_grad():
        greedy_res, _ = model.sample(fc_feats, greedy=True)
    model.train()
    gen_np = gen_result.data.cpu().numpy()
    greedy_np = greedy_res.data.cpu().numpy()
    gts_np = gts.cpu().numpy()
    scores = caption_score(gen_np, gts_np) - caption_score(greedy_np, gts_np)
    rewards = np.repeat(scores[:, np.newaxis], gen_result.shape[1], 1)
    assert rewards.shape[0] == batch_size
    return rewards


class RewardCriterion(torch.nn.Module):
    def forward(self, seq_logprobs, seq, reward):
        # seq_logprobs: log-prob of each sampled word, already gathered [B, T]
        mask = (seq > 0).float()
        mask = torch.cat([mask.new_ones(mask.size(0), 1), mask[:, :-1]], 1)
        output = -seq_logprobs * reward * mask
        return torch.sum(output) / torch.sum(mask)
