"""source: https://github.com/oxwhirl/pymarl/issues/161

A recurrent actor-critic whose GRU hidden state is re-initialised at the start of
every episode (init_hidden), as pymarl's controllers do.  Inside an episode the
hidden state carries the graph on purpose (BPTT over the episode); the actor loss
is backpropagated with retain_graph=True so the critic loss can reuse the same
forward.  Each episode builds a fresh graph of the same size.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class RNNAgent(nn.Module):
    def __init__(self, obs_dim=6, hid=32, n_act=3):
        super().__init__()
        self.hid = hid
        self.fc, self.rnn = nn.Linear(obs_dim, hid), nn.GRUCell(hid, hid)
        self.pi, self.v = nn.Linear(hid, n_act), nn.Linear(hid, 1)

    def init_hidden(self):
        return torch.zeros(1, self.hid)

    def forward(self, obs, h):
        h = self.rnn(torch.relu(self.fc(obs)), h)
        return self.pi(h), self.v(h), h


torch.manual_seed(0)
agent = RNNAgent()
optimizer = torch.optim.RMSprop(agent.parameters(), lr=5e-4)
sizes = []
for episode in range(5):
    h = agent.init_hidden()  # reset at every episode
    actor_loss = critic_loss = 0.0
    for obs, r in zip(torch.randn(6, 1, 6), torch.rand(6)):
        logits, value, h = agent(obs, h)
        dist = Categorical(logits=logits)
        adv = r - value.squeeze()
        actor_loss = actor_loss - (dist.log_prob(dist.sample()) * adv.detach()).sum()
        critic_loss = critic_loss + adv.pow(2)
    optimizer.zero_grad()
    actor_loss.backward(retain_graph=True)
    critic_loss.backward()
    optimizer.step()
    sizes.append(graph_size(actor_loss))

assert len(set(sizes)) == 1, sizes
print("graph constant:", sizes)
