"""
expect: none
dynamic: dismiss
source: https://github.com/leggedrobotics/rsl_rl/blob/main/rsl_rl/algorithms/ppo.py

Legged locomotion with PPO (rsl_rl style). The PPO implementation used for legged-gym
training stores everything it records during the rollout detached (actions, values,
log-probs, action mean and std), bootstraps the last return with
`self.critic(obs).detach()`, computes the KL for the adaptive learning rate under
`torch.inference_mode()`, and accumulates an extra mirror-symmetry term with `loss +=`
against a detached mirrored target. Each of these cuts is intended: rollout values,
returns and advantages are constants of the PPO objective, the KL only sets the step
size, and the symmetry target is a label. The update recomputes log-probs and values with
gradient from the stored observations, so actor, critic and std all train. Here a
batch of simulated one-dimensional "base velocity tracking" robots (command and current
velocity in, joint force out) is trained for a few iterations; the asserts show that the
tracking reward rises and every parameter received gradient.
"""
import torch

from ppo import ActorCritic, PPO

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_ENVS, STEPS, ITERS = 64, 24, 18


class VelocityTrackingEnv:
    """Toy vectorized locomotion task: reach a commanded base velocity."""

    def __init__(self, n):
        self.n = n
        self.reset_all()

    def reset_all(self):
        self.cmd = torch.rand(self.n) * 2 - 1
        self.vel = torch.zeros(self.n)
        self.t = torch.zeros(self.n)

    def obs(self):
        return torch.stack([self.cmd, self.vel], -1)

    def step(self, action):
        a = action.squeeze(-1).clamp(-2, 2)
        self.vel = 0.8 * self.vel + 0.2 * a
        self.t += 1
        reward = torch.exp(-4.0 * (self.vel - self.cmd) ** 2)
        done = self.t >= 48
        if done.any():
            self.cmd = torch.where(done, torch.rand(self.n) * 2 - 1, self.cmd)
            self.vel = torch.where(done, torch.zeros(self.n), self.vel)
            self.t = torch.where(done, torch.zeros(self.n), self.t)
        return self.obs(), reward, done


env = VelocityTrackingEnv(NUM_ENVS)
ac = ActorCritic(num_obs=2, num_actions=1)
ppo = PPO(ac, lr=3e-3)
obs = env.obs()
mean_rewards, value_losses = [], []
for it in range(ITERS):
    rews = []
    for _ in range(STEPS):
        actions = ppo.act(obs)
        obs, reward, done = env.step(actions)
        ppo.process_env_step(reward, done)
        rews.append(reward.mean().item())
    ppo.compute_returns(obs)
    value_losses.append(ppo.update())
    mean_rewards.append(sum(rews) / len(rews))

early, late = sum(mean_rewards[:5]) / 5, sum(mean_rewards[-5:]) / 5
assert late > early + 0.1, (early, late)
for name, p in ac.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("PPO tracking reward %.3f -> %.3f" % (early, late))
