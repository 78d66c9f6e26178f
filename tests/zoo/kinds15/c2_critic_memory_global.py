"""
expect: GL004 35
dynamic: confirm
source: kind C

A value critic for an RL agent summarises past observations in a global running context that a
free function updates from itself (an exponential moving average of encoded observations) before
predicting the value and running backward(retain_graph=True); the script calls it once per
environment step. Counting the encoder-output hooks that fire shows the backward at step k reaches
all k steps so far, while a fixed function that detaches the context reaches only the current step
and trains the critic.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)

encoder = nn.Sequential(nn.Linear(3, 8), nn.ReLU())
value_head = nn.Linear(8, 1)
critic_opt = torch.optim.Adam([*encoder.parameters(), *value_head.parameters()], lr=1e-2)

context = torch.zeros(1, 8)
fired = []


def critic_update(obs, target_return):
    global context
    code = encoder(obs)
    code.register_hook(lambda g: fired.append(1))
    context = 0.9 * context + 0.1 * code
    value = value_head(context)
    loss = F.mse_loss(value, target_return)
    start = len(fired)
    loss.backward(retain_graph=True)
    return len(fired) - start


observations = torch.randn(5, 1, 3)
returns = torch.randn(5, 1, 1)
counts = [critic_update(o, r) for o, r in zip(observations, returns)]
critic_opt.step()
critic_opt.zero_grad()
print("steps reached per backward:", counts)
assert counts == [1, 2, 3, 4, 5]

context = torch.zeros(1, 8)


def critic_update_v2(obs, target_return):
    global context
    context = context.detach()
    code = encoder(obs)
    code.register_hook(lambda g: fired.append(1))
    context = 0.9 * context + 0.1 * code
    loss = F.mse_loss(value_head(context), target_return)
    start = len(fired)
    critic_opt.zero_grad()
    loss.backward()
    critic_opt.step()
    return len(fired) - start


w0 = value_head.weight.detach().clone()
fixed_counts = [critic_update_v2(o, r) for o, r in zip(observations, returns)]
assert fixed_counts == [1] * 5
assert not torch.equal(w0, value_head.weight.detach())
print("ok")
