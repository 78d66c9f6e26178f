"""
expect: none
dynamic: dismiss
source: https://github.com/IC3Net/IC3Net/issues/7

A user asks why IC3Net's trainer detaches the LSTM hidden and cell state every
`detach_gap` steps of an episode (`prev_hid = (prev_hid[0].detach(), prev_hid[1].detach())`).
This is truncated backpropagation through time: within each window the communication network,
gate and policy still receive gradients, only the path into older windows is cut, and the
loss is backpropagated once per episode. This program rebuilds a small IC3Net-style multi-agent
communication policy on a toy coordination task with REINFORCE + value baseline; the asserts
show every parameter (encoder, LSTM, communication projection, gate, policy, value) gets a
non-zero gradient and moves, and the graph reached by backward has the same size every episode.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_AGENTS, OBS, HID, ACT, T, DETACH_GAP = 3, 4, 16, 2, 12, 4


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class CommNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS, HID)
        self.lstm = nn.LSTMCell(HID, HID)
        self.comm = nn.Linear(HID, HID)
        self.gate = nn.Linear(HID, 1)
        self.policy = nn.Linear(HID, ACT)
        self.value = nn.Linear(HID, 1)

    def forward(self, obs, prev_hid, comm_in):
        h, c = self.lstm(self.encoder(obs) + comm_in, prev_hid)
        gate = torch.sigmoid(self.gate(h))
        msg = self.comm(h) * gate
        comm_out = (msg.sum(0, keepdim=True) - msg) / (N_AGENTS - 1)
        return (h, c), comm_out, F.log_softmax(self.policy(h), -1), self.value(h).squeeze(-1)


def run_episode(net):
    prev_hid = (torch.zeros(N_AGENTS, HID), torch.zeros(N_AGENTS, HID))
    comm = torch.zeros(N_AGENTS, HID)
    logps, values, rewards = [], [], []
    for t in range(T):
        if (t + 1) % DETACH_GAP == 0:
            prev_hid = (prev_hid[0].detach(), prev_hid[1].detach())
        obs = torch.randn(N_AGENTS, OBS)
        prev_hid, comm, logp, value = net(obs, prev_hid, comm)
        action = torch.distributions.Categorical(logits=logp).sample()
        logps.append(logp.gather(1, action[:, None]).squeeze(1))
        values.append(value)
        rewards.append(torch.full((N_AGENTS,), float(action.float().mean() > 0.5)))
    returns = torch.stack(rewards).flip(0).cumsum(0).flip(0)
    adv = returns - torch.stack(values)
    return -(torch.stack(logps) * adv.detach()).mean() + 0.5 * adv.pow(2).mean()


net = CommNet()
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
before = {n: p.detach().clone() for n, p in net.named_parameters()}
sizes = []
for episode in range(6):
    loss = run_episode(net)
    opt.zero_grad()
    loss.backward()
    for n, p in net.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, n
    opt.step()
    sizes.append(graph_size(loss))

assert len(set(sizes)) == 1, sizes
assert all(not torch.equal(before[n], p) for n, p in net.named_parameters())
print("p18 ok: truncated BPTT keeps every parameter trained; graph size", sizes[0])
