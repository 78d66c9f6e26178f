"""
expect: GL005 46
dynamic: confirm
source: https://github.com/sweetice/Deep-reinforcement-learning-with-pytorch/issues/37

The issue proposes updating the state-value baseline of REINFORCE-with-baseline inside the
episode loop: policy_loss_w = -delta, backward(retain_graph=True), optimizer_w.step(); replies
report that the code then fails with a computation-graph error. This program rebuilds that update:
delta = G_t - V(s_t) is used first for the value step and then, through the same graph, for the
policy loss. optimizer_w.step() rewrites the value network's output-layer weight in place while
delta's graph saved it, so the policy backward raises "modified by an inplace operation"; the
variant that detaches delta for the policy term trains both networks.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, s):
        return torch.distributions.Categorical(logits=self.net(s))


class StateValue(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s):
        return self.net(s).squeeze(-1)


def finish_episode(policy, s_value_func, states, actions, returns, split_adv):
    optimizer_theta = torch.optim.Adam(policy.parameters(), lr=1e-3)
    optimizer_w = torch.optim.Adam(s_value_func.parameters(), lr=1e-3)
    for s, a, G in zip(states, actions, returns):
        delta = G - s_value_func(s)
        optimizer_w.zero_grad()
        policy_loss_w = -delta
        policy_loss_w.backward(retain_graph=True)
        optimizer_w.step()
        adv = delta.detach() if split_adv else delta
        optimizer_theta.zero_grad()
        policy_loss = -adv * policy(s).log_prob(a)
        policy_loss.backward()
        optimizer_theta.step()


states = [torch.randn(4) for _ in range(5)]
actions = [torch.tensor(i % 2) for i in range(5)]
returns = [float(5 - i) for i in range(5)]

try:
    finish_episode(Policy(), StateValue(), states, actions, returns, split_adv=False)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "inplace" in msg, msg

pol, val = Policy(), StateValue()
p0, v0 = pol.net[2].weight.detach().clone(), val.net[2].weight.detach().clone()
finish_episode(pol, val, states, actions, returns, split_adv=True)
assert not torch.equal(p0, pol.net[2].weight) and not torch.equal(v0, val.net[2].weight)
print("ok: baseline step between two backward calls through delta raises")
