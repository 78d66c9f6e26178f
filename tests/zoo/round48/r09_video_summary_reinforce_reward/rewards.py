"""Diversity-representativeness reward for unsupervised video summarization (computed, not learned)."""
import torch


def compute_reward(seq, actions, ignore_far_sim=True, temp_dist_thre=20):
    """seq: (1, T, D) frame features, actions: (1, T, 1) binary picks -> scalar reward tensor."""
    _seq = seq.detach()
    _actions = actions.detach()
    pick_idxs = _actions.squeeze().nonzero().squeeze(-1)
    num_picks = pick_idxs.numel()
    if num_picks == 0:
        return torch.tensor(0.0)
    _seq = _seq.squeeze(0)
    n = _seq.size(0)

    # diversity reward
    if num_picks == 1:
        reward_div = torch.tensor(0.0)
    else:
        normed = _seq / _seq.norm(p=2, dim=1, keepdim=True)
        dissim = 1.0 - normed @ normed.t()
        dissim_sub = dissim[pick_idxs][:, pick_idxs]
        if ignore_far_sim:
            pick_mat = pick_idxs.expand(num_picks, num_picks)
            temp_dist = (pick_mat - pick_mat.t()).abs()
            dissim_sub[temp_dist > temp_dist_thre] = 1.0
        reward_div = dissim_sub.sum() / (num_picks * (num_picks - 1.0))

    # representativeness reward
    dist = _seq.pow(2).sum(dim=1, keepdim=True).expand(n, n)
    dist = dist + dist.t()
    dist.addmm_(_seq, _seq.t(), beta=1, alpha=-2)
    dist = dist[:, pick_idxs].min(1, keepdim=True)[0]
    reward_rep = torch.exp(-dist.mean())
    return (reward_div + reward_rep) * 0.5
