"""
expect: GL005 ddpg_learner.py:49
dynamic: confirm
source: kinds check 44, kind 2

A script drives a DDPG-style learner defined in ddpg_learner.py on one random replay
batch: `learner.forward_pass(batch)` stores the critic's Q of the actor's actions in
`self.q_policy`, `learner.update_critic()` fits the critic to TD targets and calls
`self.critic_optim.step()`, and `learner.update_actor()` then backpropagates
`-self.q_policy.mean()`, whose graph saved the critic weights that the step just
changed in place. The asserts check that the actor update raises "modified by an
inplace operation" and that the actor's parameters are never updated, while the critic
did take its step.
"""
import torch

from ddpg_learner import DDPGLearner

OBS_DIM, ACT_DIM, BATCH = 10, 3, 128


def random_batch(n):
    return {
        "obs": torch.randn(n, OBS_DIM),
        "action": torch.rand(n, ACT_DIM) * 2 - 1,
        "reward": torch.randn(n, 1),
        "next_obs": torch.randn(n, OBS_DIM),
        "done": (torch.rand(n, 1) < 0.05).float(),
    }


torch.manual_seed(3)
learner = DDPGLearner(OBS_DIM, ACT_DIM)
actor_before = [p.detach().clone() for p in learner.actor.parameters()]
critic_before = [p.detach().clone() for p in learner.critic.parameters()]

batch = random_batch(BATCH)
learner.forward_pass(batch)
critic_loss = learner.update_critic()
try:
    learner.update_actor()
    error = None
except RuntimeError as exc:
    error = str(exc)

assert error is not None and "modified by an inplace operation" in error
assert all(torch.equal(a, p) for a, p in zip(actor_before, learner.actor.parameters()))
assert any(not torch.equal(c, p) for c, p in zip(critic_before, learner.critic.parameters()))
print(f"critic loss {critic_loss:.3f}")
