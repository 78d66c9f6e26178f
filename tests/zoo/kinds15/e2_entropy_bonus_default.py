"""
expect: GL001 26
dynamic: confirm
source: kind E

A policy-gradient update takes an exploration-bonus function as a parameter; the default computes
the policy entropy inside torch.no_grad(), so subtracting it from the loss changes nothing in the
gradient. The asserts show the policy's gradient under the default equals the gradient of the plain
policy-gradient loss alone (unchanged by the bonus), while the script's second call with a
graph-keeping entropy function yields a different gradient and still trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(13)

policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
opt = torch.optim.SGD(policy.parameters(), lr=0.05)

obs = torch.randn(12, 4)
actions = torch.randint(0, 3, (12,))
advantages = torch.randn(12)


def entropy_estimate(logits):
    with torch.no_grad():
        ent = torch.distributions.Categorical(logits=logits).entropy().mean()
    return ent


def policy_entropy(logits):
    return torch.distributions.Categorical(logits=logits).entropy().mean()


def pg_update(bonus_fn=entropy_estimate, beta=0.5, step=True):
    logits = policy(obs)
    logp = torch.distributions.Categorical(logits=logits).log_prob(actions)
    loss = -(logp * advantages).mean() - beta * bonus_fn(logits)
    opt.zero_grad()
    loss.backward()
    grad = policy[2].weight.grad.clone()
    if step:
        opt.step()
    return grad


grad_plain = pg_update(bonus_fn=lambda logits: torch.zeros(()), step=False)
grad_default = pg_update()
assert torch.allclose(grad_plain, grad_default)
print("default bonus: gradient identical to the loss without any bonus")

w0 = policy[2].weight.detach().clone()
grad_plain_now = pg_update(bonus_fn=lambda logits: torch.zeros(()), step=False)
grad_live = pg_update(bonus_fn=policy_entropy)
assert not torch.allclose(grad_plain_now, grad_live)
assert not torch.equal(w0, policy[2].weight.detach())
print("ok")
