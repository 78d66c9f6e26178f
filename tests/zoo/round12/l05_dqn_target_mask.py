"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/tutorials/issues/194

The DQN tutorial crashed on PyTorch master because of its volatile handling of
the next-state values (computed volatile, then flipped with
`next_state_values.volatile = False` so the loss could be built). Today the
tutorial computes them under torch.no_grad() and writes them into a zero
tensor by index. This program rebuilds that optimize_model step. The no_grad
block and the in-place masked write only touch the target side, which is meant
to be a constant; the asserts show the policy network gets gradients and
changes, and the target network stays untouched as intended.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DQN(nn.Module):
    def __init__(self, s_dim=4, n_act=2):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(s_dim, 32), nn.ReLU(), nn.Linear(32, n_act))

    def forward(self, x):
        return self.layers(x)


def optimize_model(policy_net, target_net, optimizer, batch, gamma=0.99):
    state, action, reward, next_state, done = batch
    non_final_mask = ~done
    non_final_next = next_state[non_final_mask]
    state_action_values = policy_net(state).gather(1, action)
    next_state_values = torch.zeros(state.shape[0])
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next).max(1).values
    expected = reward + gamma * next_state_values
    loss = F.smooth_l1_loss(state_action_values, expected.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


torch.manual_seed(0)
policy_net, target_net = DQN(), DQN()
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-3)
p0 = policy_net.layers[0].weight.detach().clone()
t0 = target_net.layers[0].weight.detach().clone()
for _ in range(10):
    batch = (torch.randn(32, 4), torch.randint(0, 2, (32, 1)), torch.randn(32),
             torch.randn(32, 4), torch.rand(32) < 0.1)
    optimize_model(policy_net, target_net, optimizer, batch)
    assert policy_net.layers[0].weight.grad.abs().sum() > 0
assert target_net.layers[0].weight.grad is None
assert torch.equal(t0, target_net.layers[0].weight)
assert not torch.equal(p0, policy_net.layers[0].weight)
print("policy updated, target frozen")
