"""
expect: GL001 main.py:52
dynamic: confirm
source: https://github.com/kc-ml2/SimpleDreamer/commit/cb6d4f04e3d01c517da793d60cf92644766017a6

Plan2Explore behaviour learning: the actor is rolled forward inside the
learned world model and trained by backpropagating the lambda-return of the
imagined trajectory through the dynamics. For the exploration actor the reward
is the disagreement (std) of an ensemble of one-step models evaluated on the
imagined actions and latent states, but those inputs are detached before the
ensemble sees them. The intrinsic reward is then a constant as far as the
actor is concerned: its gradient with respect to the actor is None, and the
actor's update is exactly the one it would get with the reward term removed,
so the exploration bonus never shapes the policy. Feeding the ensemble the
undetached imagined tensors gives the actor a gradient from the reward.
"""
import torch

from world_model import DETER, STOCH, Actor, Critic, OneStepModel, RSSM

torch.manual_seed(0)
torch.set_num_threads(1)

HORIZON, BATCH, DISCOUNT, LAMBDA = 6, 5, 0.99, 0.95
rssm, actor, critic = RSSM(), Actor(), Critic()
one_step_models = [OneStepModel() for _ in range(4)]
actor_optimizer = torch.optim.Adam(actor.parameters(), lr=1e-3)


def imagine(start_state, start_deter):
    state, deterministic = start_state, start_deter
    actions, priors, deters = [], [], []
    for _ in range(HORIZON):
        action = actor(state, deterministic)
        deterministic = rssm.recurrent_model(state, action, deterministic)
        _, state = rssm.transition_model(deterministic)
        actions.append(action)
        priors.append(state)
        deters.append(deterministic)
    return torch.stack(actions, 1), torch.stack(priors, 1), torch.stack(deters, 1)


def compute_lambda_values(rewards, values, continues):
    next_return, out = values[:, -1], []
    for t in reversed(range(HORIZON - 1)):
        next_return = rewards[:, t] + continues[:, t] * ((1 - LAMBDA) * values[:, t + 1] + LAMBDA * next_return)
        out.append(next_return)
    return torch.stack(out[::-1], 1)


def intrinsic_reward_as_written(actions, priors, deters):
    means = [m(actions.detach(), priors.detach(), deters.detach()).mean for m in one_step_models]
    return torch.stack(means, 0).std(0).mean(-1, keepdim=True)


def intrinsic_reward_undetached(actions, priors, deters):
    means = [m(actions, priors, deters).mean for m in one_step_models]
    return torch.stack(means, 0).std(0).mean(-1, keepdim=True)


def actor_loss_and_reward(reward_fn, reward_scale=1.0):
    start_state, start_deter = torch.randn(BATCH, STOCH), torch.randn(BATCH, DETER)
    actions, priors, deters = imagine(start_state, start_deter)
    predicted_rewards = reward_fn(actions, priors, deters)
    values = critic(priors, deters).mean
    continues = DISCOUNT * torch.ones_like(values)
    lambda_values = compute_lambda_values(reward_scale * predicted_rewards, values, continues)
    return -torch.mean(lambda_values), predicted_rewards


def actor_grads(loss):
    return torch.autograd.grad(loss, list(actor.parameters()), retain_graph=True)


torch.manual_seed(1)
loss, rewards = actor_loss_and_reward(intrinsic_reward_as_written)
reward_grads = torch.autograd.grad(rewards.sum(), list(actor.parameters()), retain_graph=True, allow_unused=True)
assert all(g is None for g in reward_grads)
with_reward = actor_grads(loss)
torch.manual_seed(1)
loss_no_reward, _ = actor_loss_and_reward(intrinsic_reward_as_written, reward_scale=0.0)
without_reward = actor_grads(loss_no_reward)
assert all(torch.allclose(a, b) for a, b in zip(with_reward, without_reward))

torch.manual_seed(1)
loss, rewards = actor_loss_and_reward(intrinsic_reward_undetached)
reward_grads = torch.autograd.grad(rewards.sum(), list(actor.parameters()), retain_graph=True)
assert all(g.abs().sum() > 0 for g in reward_grads)
with_reward = actor_grads(loss)
assert any(not torch.allclose(a, b) for a, b in zip(with_reward, without_reward))

actor_optimizer.zero_grad()
loss.backward()
actor_optimizer.step()
print("detached ensemble inputs: intrinsic reward adds nothing to the actor update; undetached: it does")
