"""
expect: GL003 51
dynamic: confirm
source: https://github.com/unslothai/unsloth-zoo/pull/171

The PR added `requires_grad` on the logits "when the model output does not include a loss" so that
the GRPO loss could be backpropagated. This program rebuilds a small GRPO-style trainer in which the
logits used by the loss are the ones cached during the rollout (stored detached, to save a second
forward pass) and `requires_grad_(True)` is switched on them before the clipped-ratio loss. The loss
now backpropagates without error, but only into the cached leaf: every policy parameter has
`.grad is None` and stays unchanged, while recomputing the logits with the policy trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self, obs=6, actions=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.Tanh(), nn.Linear(32, actions))

    def forward(self, prompts):
        return self.body(prompts)


class GroupPolicyTrainer:
    def __init__(self, policy, group=4, clip=0.2, reuse_rollout_logits=True):
        self.policy = policy
        self.group = group
        self.clip = clip
        self.reuse = reuse_rollout_logits
        self.opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
        self.cache = {}

    def rollout(self, prompts, reward_fn):
        prompts = prompts.repeat_interleave(self.group, dim=0)
        logits = self.policy(prompts)
        actions = torch.distributions.Categorical(logits=logits).sample()
        rewards = reward_fn(actions).view(-1, self.group)
        adv = (rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)
        self.cache = {"prompts": prompts, "logits": logits.detach(),
                      "actions": actions, "adv": adv.view(-1)}

    def policy_logits(self):
        if not self.reuse:
            return self.policy(self.cache["prompts"])
        logits = self.cache["logits"]
        logits.requires_grad_(True)
        return logits

    def update(self):
        logits = self.policy_logits()
        logp = F.log_softmax(logits, -1).gather(1, self.cache["actions"][:, None]).squeeze(1)
        old_logp = F.log_softmax(self.cache["logits"], -1).gather(1, self.cache["actions"][:, None]).squeeze(1)
        ratio = torch.exp(logp - old_logp)
        adv = self.cache["adv"]
        loss = -torch.min(ratio * adv, ratio.clamp(1 - self.clip, 1 + self.clip) * adv).mean()
        self.opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in self.policy.parameters()]
        self.opt.step()
        return grads


def reward_fn(actions):
    return (actions == 2).float()


prompts = torch.randn(3, 6)

trainer = GroupPolicyTrainer(Policy())
snapshot = [p.detach().clone() for p in trainer.policy.parameters()]
for _ in range(3):
    trainer.rollout(prompts, reward_fn)
    grads = trainer.update()
    assert all(g is None for g in grads), "policy parameters get no gradient"
assert all(torch.equal(a, b.detach()) for a, b in zip(snapshot, trainer.policy.parameters()))

torch.manual_seed(0)
ref = GroupPolicyTrainer(Policy(), reuse_rollout_logits=False)
ref_snapshot = [p.detach().clone() for p in ref.policy.parameters()]
ref.rollout(prompts, reward_fn)
grads = ref.update()
assert all(g is not None for g in grads) and sum(g.abs().sum() for g in grads) > 0
assert any(not torch.equal(a, b.detach()) for a, b in zip(ref_snapshot, ref.policy.parameters()))
print("ok: requires_grad_ on cached rollout logits trains nothing")
