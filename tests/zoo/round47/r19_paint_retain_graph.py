"""
expect: none
dynamic: dismiss
source: https://github.com/hzwer/ICCV2019-LearningToPaint/issues/32

A painting agent in the style of LearningToPaint: model-based DDPG whose reward comes from a WGAN discriminator
and whose actions are rendered onto the canvas by a frozen neural stroke renderer. Each update computes the TD
target under no_grad, backpropagates the critic loss with retain_graph=True, steps the critic, re-plays the actor
on the same states and backpropagates the policy loss, again with retain_graph=True. The issue asked why
retain_graph is needed. It is not needed, but it does no harm: every graph is rebuilt from replay-buffer tensors
inside the update and nothing holding history survives the iteration, so no graph is carried over. The asserts
check that the autograd graph behind both losses has the same size at every iteration, that the policy graph is
built after the critic step (no stale weights, no error), and that actor and critic both train.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

PIX, STROKE, MAX_STEP, B = 64, 4, 5, 16

renderer = nn.Sequential(nn.Linear(STROKE, 32), nn.ReLU(), nn.Linear(32, PIX), nn.Sigmoid())
renderer.requires_grad_(False)
discriminator = nn.Sequential(nn.Linear(2 * PIX, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
actor = nn.Sequential(nn.Linear(2 * PIX + 1, 64), nn.ReLU(), nn.Linear(64, STROKE + 1), nn.Sigmoid())
critic = nn.Sequential(nn.Linear(3 * PIX + 1, 64), nn.ReLU(), nn.Linear(64, 1))
actor_target = nn.Sequential(nn.Linear(2 * PIX + 1, 64), nn.ReLU(), nn.Linear(64, STROKE + 1), nn.Sigmoid())
critic_target = nn.Sequential(nn.Linear(3 * PIX + 1, 64), nn.ReLU(), nn.Linear(64, 1))
actor_target.load_state_dict(actor.state_dict())
critic_target.load_state_dict(critic.state_dict())
actor_optim = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
d_optim = torch.optim.Adam(discriminator.parameters(), lr=1e-4)


def decode(action, canvas):
    stroke = 1 - renderer(action[:, :STROKE])
    return canvas * (1 - stroke) + stroke * action[:, STROKE:]


def cal_reward(canvas, gt):
    return discriminator(torch.cat([canvas, gt], dim=1))


def play(state, target=False):
    net = actor_target if target else actor
    return net(state)


def evaluate(state, action, target=False):
    canvas0, gt, t = state[:, :PIX], state[:, PIX:2 * PIX], state[:, -1:]
    canvas1 = decode(action, canvas0)
    gan_reward = cal_reward(canvas1, gt) - cal_reward(canvas0, gt)
    merged = torch.cat([canvas0, canvas1, gt, t + 1.0 / MAX_STEP], dim=1)
    q = (critic_target if target else critic)(merged)
    return q + gan_reward, gan_reward


def update_gan(state):
    canvas, gt = state[:, :PIX], state[:, PIX:2 * PIX]
    fake = cal_reward(canvas, gt).mean()
    real = cal_reward(gt, gt).mean()
    d_optim.zero_grad()
    (fake - real).backward()
    d_optim.step()


def soft_update(target, source, tau=0.01):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.copy_(t * (1 - tau) + s * tau)


def count_nodes(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


memory = torch.cat([torch.rand(256, 2 * PIX), torch.randint(0, MAX_STEP, (256, 1)) / MAX_STEP], dim=1)
actions_in_memory = torch.rand(256, STROKE + 1)
next_memory = memory.clone()
next_memory[:, :PIX] = decode(actions_in_memory, memory[:, :PIX]).detach()


def update_policy(sizes):
    idx = torch.randint(0, 256, (B,))
    state, action, next_state = memory[idx], actions_in_memory[idx], next_memory[idx]
    terminal = torch.zeros(B, 1)
    update_gan(next_state)
    with torch.no_grad():
        next_action = play(next_state, True)
        target_q, _ = evaluate(next_state, next_action, True)
        target_q = 0.95 * (1 - terminal) * target_q
    cur_q, step_reward = evaluate(state, action)
    target_q += step_reward.detach()
    value_loss = nn.functional.mse_loss(cur_q, target_q)
    critic.zero_grad()
    value_loss.backward(retain_graph=True)
    critic_optim.step()

    action = play(state)
    pre_q, _ = evaluate(state.detach(), action)
    policy_loss = -pre_q.mean()
    sizes.append((count_nodes(value_loss.grad_fn), count_nodes(policy_loss.grad_fn)))
    actor.zero_grad()
    policy_loss.backward(retain_graph=True)
    actor_optim.step()
    soft_update(actor_target, actor)
    soft_update(critic_target, critic)
    return value_loss.item(), policy_loss.item()


a0 = [p.detach().clone() for p in actor.parameters()]
c0 = [p.detach().clone() for p in critic.parameters()]
sizes = []
for _ in range(20):
    update_policy(sizes)
assert len(set(sizes)) == 1, sizes
assert any(not torch.equal(a, b) for a, b in zip(a0, actor.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(c0, critic.parameters()))
assert all(p.grad is None for p in renderer.parameters())
print("graph sizes (value, policy) at every update:", sizes[0])
