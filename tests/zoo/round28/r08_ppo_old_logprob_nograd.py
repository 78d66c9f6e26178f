"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/trl/issues/1720

trl question: "why don't ratios need to be detached?" The old log-probs are taken
under torch.no_grad() and the ratio exp(logp - old_logp) is trained through on
purpose; the maintainer showed that at ratio 1 its gradient equals the plain
policy gradient. This PPO updater does the same in a class (rollout log-probs under
no_grad, clipped surrogate over several epochs). Asserts: on the first epoch the
gradient equals the REINFORCE gradient A * grad(log pi), and the policy moves
towards the advantaged actions.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))

    def log_prob(self, obs, act):
        return F.log_softmax(self.net(obs), -1).gather(1, act[:, None]).squeeze(1)


class PPOUpdater:
    def __init__(self, policy, clip=0.2, epochs=4, lr=1e-2):
        self.policy = policy
        self.clip = clip
        self.epochs = epochs
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr)

    def collect(self, obs, act):
        with torch.no_grad():
            return self.policy.log_prob(obs, act)

    def surrogate(self, obs, act, adv, old_logp):
        logp = self.policy.log_prob(obs, act)
        ratio = torch.exp(logp - old_logp)
        clipped = torch.clamp(ratio, 1 - self.clip, 1 + self.clip)
        return -torch.min(ratio * adv, clipped * adv).mean(), ratio

    def update(self, obs, act, adv):
        old_logp = self.collect(obs, act)
        first = None
        for epoch in range(self.epochs):
            loss, ratio = self.surrogate(obs, act, adv, old_logp)
            self.opt.zero_grad()
            loss.backward()
            if epoch == 0:
                first = (ratio.detach().clone(), [p.grad.clone() for p in self.policy.parameters()])
            self.opt.step()
        return first


policy = Policy()
obs = torch.randn(32, 4)
act = torch.randint(0, 3, (32,))
adv = torch.randn(32)

# reference: vanilla policy gradient at the same parameters
ref = Policy()
ref.load_state_dict(policy.state_dict())
(-(adv * ref.log_prob(obs, act)).mean()).backward()
ref_grads = [p.grad for p in ref.parameters()]

score_before = (adv * policy.log_prob(obs, act)).mean().item()
ratio0, grads0 = PPOUpdater(policy).update(obs, act, adv)
score_after = (adv * policy.log_prob(obs, act)).mean().item()

assert torch.allclose(ratio0, torch.ones_like(ratio0))
assert all(torch.allclose(g, r, atol=1e-6) for g, r in zip(grads0, ref_grads))
assert score_after > score_before
print("ok: no_grad old log-probs leave the policy gradient intact", score_before, score_after)
