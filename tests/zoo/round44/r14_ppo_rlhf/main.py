"""
expect: none
dynamic: dismiss
source: https://github.com/deepspeedai/DeepSpeedExamples/issues/528

A DeepSpeed-Chat style PPO step for RLHF. Experience is generated with the actor, a frozen reference
copy, a reward model and the critic all under torch.no_grad(), with the reward scores and values
additionally detached. The trainer then recomputes KL-shaped rewards under no_grad, adds the
clipped sequence reward in place at the last response token, zeroes rewards and values past the end
in place, and detaches the GAE advantages. None of these cut or edited tensors is meant to carry
gradient: they are targets. The actor and the critic are trained through fresh forward passes. The
asserts check that actor and critic receive finite gradients and move, that the reference and reward
models get no gradient and stay fixed, and that after a few PPO iterations the policy produces the
rewarded token more often.
"""
import torch

from ppo_trainer import Critic, PPOTrainer, RewardModel, TinyLM

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, HIDDEN, PREFERRED = 8, 16, 3
actor = TinyLM(VOCAB, HIDDEN)
trainer = PPOTrainer(actor, Critic(VOCAB, HIDDEN), RewardModel(VOCAB, PREFERRED))
prompts = torch.randint(0, VOCAB, (32, 2))

ref_before = [p.detach().clone() for p in trainer.ref.parameters()]
rm_before = [p.detach().clone() for p in trainer.reward_model.parameters()]
actor_before = [p.detach().clone() for p in actor.parameters()]
critic_before = [p.detach().clone() for p in trainer.critic.parameters()]


def mean_reward():
    with torch.no_grad():
        return trainer.reward_model(trainer._generate(prompts, 5), prompts.size(1)).mean().item()


torch.manual_seed(1)
r0 = sum(mean_reward() for _ in range(5)) / 5
for it in range(40):
    exp = trainer.generate_experience(prompts, 5)
    a_loss, c_loss = trainer.train_rlhf(exp)
    if it == 0:
        assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in actor.parameters())
        assert all(p.grad is not None for p in trainer.critic.parameters())
torch.manual_seed(1)
r1 = sum(mean_reward() for _ in range(5)) / 5

assert all(p.grad is None for p in trainer.ref.parameters())
assert all(p.grad is None for p in trainer.reward_model.parameters())
assert all(torch.equal(a, b) for a, b in zip(ref_before, trainer.ref.parameters()))
assert all(torch.equal(a, b) for a, b in zip(rm_before, trainer.reward_model.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(actor_before, actor.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(critic_before, trainer.critic.parameters()))
assert r1 > r0 + 0.2, (r0, r1)
print(f"mean reward {r0:.3f} -> {r1:.3f}; reference and reward model untouched")
