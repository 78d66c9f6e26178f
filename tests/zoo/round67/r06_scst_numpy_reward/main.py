"""
expect: none
dynamic: dismiss
source: https://github.com/ruotianluo/ImageCaptioning.pytorch/blob/master/misc/rewards.py

Image captioning fine-tuned with self-critical sequence training. The reward helper runs
the greedy baseline under torch.no_grad(), moves both caption batches to NumPy with
`.cpu().numpy()`, scores them with a CIDEr-like metric, and the advantage comes back with
`torch.from_numpy`. This looks like a loss rebuilt outside autograd, but the reward is
meant to be a constant: the gradient flows through the log-probabilities of the sampled
words (REINFORCE), which stay in the graph. The asserts check that the decoder gets a
non-zero gradient that matches a hand-written REINFORCE gradient, and that a short SCST run
raises the greedy caption score.
"""
import torch
import torch.nn as nn

from rewards import RewardCriterion, get_self_critical_reward

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, SEQ, FEAT = 7, 5, 12


class FCCaptioner(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.img_embed = nn.Linear(FEAT, hidden)
        self.embed = nn.Embedding(VOCAB, hidden)
        self.core = nn.GRUCell(hidden, hidden)
        self.logit = nn.Linear(hidden, VOCAB)

    def sample(self, feats, greedy=False):
        h = torch.tanh(self.img_embed(feats))
        it = torch.zeros(feats.size(0), dtype=torch.long)
        seq, logprobs = [], []
        for t in range(SEQ):
            h = self.core(self.embed(it), h)
            lp = torch.log_softmax(self.logit(h), dim=1)
            if greedy:
                it = lp.argmax(1)
            else:
                it = torch.multinomial(lp.exp(), 1).squeeze(1)
            seq.append(it)
            logprobs.append(lp.gather(1, it.unsqueeze(1)).squeeze(1))
        return torch.stack(seq, 1), torch.stack(logprobs, 1)


# each image class has its own reference caption
refs = {0: ["1 2 3 4"], 1: ["5 6 5 6"], 2: ["3 3 4 4"]}
centers = torch.randn(3, FEAT) * 2


def batch(b=24):
    cls = torch.randint(0, 3, (b,))
    return centers[cls] + 0.3 * torch.randn(b, FEAT), [refs[int(c)] for c in cls]


model = FCCaptioner()
crit = RewardCriterion()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

# one step: gradient is non-zero and equals the REINFORCE gradient
feats, gts = batch()
gen_result, sample_logprobs = model.sample(feats)
rewards, _ = get_self_critical_reward(model, feats, gts, gen_result)
reward_t = torch.from_numpy(rewards).float()
loss = crit(sample_logprobs, gen_result, reward_t)
g = torch.autograd.grad(loss, model.logit.weight, retain_graph=True)[0]
mask = (gen_result > 0).float()
mask = torch.cat([mask.new_ones(mask.size(0), 1), mask[:, :-1]], 1)
manual = (-(sample_logprobs * reward_t.detach() * mask).sum() / mask.sum())
g_manual = torch.autograd.grad(manual, model.logit.weight)[0]
assert torch.allclose(g, g_manual)
if rewards.any():
    assert g.abs().sum() > 0

greedy_scores = []
for it in range(300):
    feats, gts = batch()
    optimizer.zero_grad()
    gen_result, sample_logprobs = model.sample(feats)
    rewards, greedy_mean = get_self_critical_reward(model, feats, gts, gen_result)
    loss = crit(sample_logprobs, gen_result, torch.from_numpy(rewards).float())
    loss.backward()
    optimizer.step()
    greedy_scores.append(greedy_mean)
start = sum(greedy_scores[:20]) / 20
end = sum(greedy_scores[-20:]) / 20
print(f"greedy caption score {start:.3f} -> {end:.3f}")
assert end > start + 0.2
