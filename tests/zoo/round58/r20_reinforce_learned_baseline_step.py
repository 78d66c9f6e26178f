"""
expect: GL005 75
dynamic: confirm
source: https://github.com/StDario/fairseq-rl/blob/96a0ee4db1a2d1781d565a2539c20ed392dfb608/fairseq/criterions/sequence_reinforce.py

This fairseq criterion trains a translation model with REINFORCE and a learned
baseline: a small two-layer BaselineEstimator reads the decoder's (detached) hidden
states and predicts the reward of each position. Inside the criterion's forward (the
REINFORCE path with the baseline enabled and a2c off; its warm-up counter is never
incremented in this revision, so the path is live when the warm-up length is 0) the
baseline is fitted on the spot with `baseline_loss.backward(retain_graph=True)` and
`self.baseline_optimizer.step()`, and the policy loss handed back to the trainer is
`(-(rewards - baseline_reward) * scores).sum()`, built from the same, non-detached
baseline_reward. When the trainer back-propagates that loss, the graph runs back
through the baseline's second linear layer, whose weight (needed to reach the first
layer) the baseline optimizer has just overwritten in place, and autograd stops with
"one of the variables needed for gradient computation has been modified by an inplace
operation" (without the step it would instead push policy gradients into the
baseline). The copy below keeps that criterion shape with a toy sequence policy; the
asserts show the trainer's backward raising that error and the policy weights not
moving, while the fixed criterion (advantage built from `baseline_reward.detach()`)
trains the policy, whose average reward rises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, DIM, BSZ = 6, 5, 16, 32


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(DIM, 32)
        self.pos = nn.Parameter(torch.randn(LEN, 32) * 0.1)
        self.out = nn.Linear(32, VOCAB)

    def forward(self, src):
        states = torch.tanh(self.enc(src)[:, None, :] + self.pos)   # (B, LEN, 32)
        return F.log_softmax(self.out(states), -1), states


class BaselineEstimator(nn.Module):
    def __init__(self, input_size):
        super().__init__()
        self.ff1 = nn.Linear(input_size, input_size * 4)
        self.ff2 = nn.Linear(input_size * 4, 1)

    def forward(self, inp):
        inp = inp.detach()
        return self.ff2(F.relu(self.ff1(inp)))


class SequenceReinforceCriterion:
    def __init__(self, detach_advantage=False):
        self.baseline = BaselineEstimator(32)
        self.baseline_optimizer = torch.optim.SGD(self.baseline.parameters(), lr=0.01)
        self.detach_advantage = detach_advantage

    def forward(self, model, src, target):
        lprobs, states = model(src)
        with torch.no_grad():
            hypos = torch.multinomial(lprobs.exp().view(-1, VOCAB), 1).view(BSZ, LEN)
        rewards = (hypos == target).float().unsqueeze(-1)                # (B, LEN, 1)
        scores = lprobs.gather(2, hypos.unsqueeze(-1))                    # (B, LEN, 1)

        baseline_reward = self.baseline(states)                           # (B, LEN, 1)

        self.baseline_optimizer.zero_grad()
        baseline_loss = F.mse_loss(baseline_reward, rewards)
        baseline_loss.backward(retain_graph=True)
        self.baseline_optimizer.step()

        if self.detach_advantage:
            loss = (-(rewards - baseline_reward.detach()) * scores).sum()
        else:
            loss = (-(rewards - baseline_reward) * scores).sum()
        return loss, rewards.mean().item()


def make_task():
    proj = torch.randn(DIM, LEN)
    def batch():
        src = torch.randn(BSZ, DIM)
        target = (src @ proj).gt(0).long() * 3 + 1     # "correct" token per position
        return src, target
    return batch


def train(detach_advantage, steps=80, model=None):
    batch = make_task()
    model = model if model is not None else Policy()
    crit = SequenceReinforceCriterion(detach_advantage)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    rewards = []
    for _ in range(steps):
        loss, r = crit.forward(model, *batch())
        opt.zero_grad()
        loss.backward()              # the trainer's backward
        opt.step()
        rewards.append(r)
    return model, before, rewards


if __name__ == "__main__":
    model = Policy()
    before = [p.detach().clone() for p in model.parameters()]
    try:
        train(detach_advantage=False, model=model)
        raise AssertionError("expected the policy backward to fail")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
    assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

    model, before, rewards = train(detach_advantage=True)
    assert any(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
    assert sum(rewards[-10:]) / 10 > sum(rewards[:10]) / 10 + 0.1, rewards
    print(f"ok: in-place baseline step breaks the REINFORCE backward; detached baseline trains "
          f"(reward {sum(rewards[:10]) / 10:.2f} -> {sum(rewards[-10:]) / 10:.2f})")
