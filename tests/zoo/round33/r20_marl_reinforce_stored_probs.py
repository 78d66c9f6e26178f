"""
expect: GL002 60
dynamic: confirm
source: https://github.com/starry-sky6688/MARL-Algorithms/issues/81

The issue asks why the REINFORCE learner recomputes the action
probabilities instead of reusing the ones the rollout worker already
produced; the maintainer answers that the stored values are plain scalars
with no gradient. This program takes the asker's shortcut: the rollout
stores each chosen action's log-prob as a Python float in the episode, and
the learner rebuilds them with `torch.tensor(..., requires_grad=True)`.
`backward()` runs, but the shared agent RNN gets no gradient and never
moves. The asserts show that, and that recomputing the log-probs (the
repository's way) gives the network a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_AGENTS, OBS, N_ACT, T = 3, 5, 4, 6


class AgentRNN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.fc = nn.Linear(OBS, hidden)
        self.rnn = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, N_ACT)

    def forward(self, obs, h):
        h = self.rnn(F.relu(self.fc(obs)), h)
        return F.log_softmax(self.out(h), -1), h


def rollout(net):
    """Generate one episode; store what a replay buffer would store."""
    obs = torch.randn(T, N_AGENTS, OBS)
    h = torch.zeros(N_AGENTS, 16)
    actions, logp_taken, rewards = [], [], []
    with torch.no_grad():
        for t in range(T):
            logp, h = net(obs[t], h)
            a = torch.multinomial(logp.exp(), 1).squeeze(1)
            actions.append(a)
            logp_taken.append([logp[i, a[i]].item() for i in range(N_AGENTS)])
            rewards.append(float((a == 1).float().mean()))
    return {"o": obs, "u": torch.stack(actions), "logp": logp_taken, "r": rewards}


class Reinforce:
    def __init__(self, net, gamma=0.99, lr=1e-2):
        self.net, self.gamma = net, gamma
        self.opt = torch.optim.RMSprop(net.parameters(), lr=lr)

    def learn(self, episode, reuse_stored=True):
        if reuse_stored:
            logp = torch.tensor(episode["logp"], requires_grad=True)
        else:
            logp = self.recompute(episode)
        g, returns = 0.0, []
        for r in reversed(episode["r"]):
            g = r + self.gamma * g
            returns.insert(0, g)
        returns = torch.tensor(returns).unsqueeze(1)
        loss = -(logp * returns).sum(0).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def recompute(self, episode):
        h = torch.zeros(N_AGENTS, 16)
        out = []
        for t in range(T):
            logp, h = self.net(episode["o"][t], h)
            out.append(logp.gather(1, episode["u"][t].unsqueeze(1)).squeeze(1))
        return torch.stack(out)


net = AgentRNN()
learner = Reinforce(net)
before = [p.detach().clone() for p in net.parameters()]
for _ in range(3):
    learner.learn(rollout(net))

# Bug: the loss backpropagated into a rebuilt leaf; the RNN got nothing.
assert all(p.grad is None for p in net.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, net.parameters()))

# Repository's way: recompute log-probs inside the graph.
ep = rollout(net)
stored = torch.tensor(ep["logp"])
assert torch.allclose(learner.recompute(ep).detach(), stored, atol=1e-5)
learner.learn(ep, reuse_stored=False)
assert sum(p.grad.abs().sum().item() for p in net.parameters()) > 1e-4
print("ok: stored scalar log-probs cannot train the agent network")
