"""Multi-agent routing: one shared graph encoder over the road network, one Q-head per agent."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphEncoder(nn.Module):
    """Two rounds of mean-aggregation message passing over a dense adjacency."""

    def __init__(self, in_dim, hid):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hid)
        self.lin2 = nn.Linear(hid, hid)

    def forward(self, x, adj):
        deg = adj.sum(1, keepdim=True).clamp(min=1)
        h = torch.tanh(self.lin1(adj @ x / deg))
        return torch.tanh(self.lin2(adj @ h / deg))


class RoutingAgent(nn.Module):
    def __init__(self, hid, n_actions):
        super().__init__()
        self.q = nn.Linear(hid, n_actions)

    def forward(self, node_emb, node_idx):
        return self.q(node_emb[node_idx])


class MultiAgentTrainer:
    def __init__(self, encoder, agents, lr=1e-2):
        self.encoder = encoder
        self.agents = agents
        params = list(encoder.parameters())
        for a in agents:
            params += list(a.parameters())
        self.opt = torch.optim.SGD(params, lr=lr)

    def td_losses(self, x, adj, batch):
        emb = self.encoder(x, adj)
        losses = []
        for agent, (node_idx, action, target) in zip(self.agents, batch):
            q = agent(emb, node_idx).gather(1, action[:, None]).squeeze(1)
            losses.append(F.mse_loss(q, target))
        return losses

    def update_each_agent(self, x, adj, batch):
        """One backward and one optimizer step per agent (the reported pattern)."""
        losses = self.td_losses(x, adj, batch)
        for loss in losses:
            self.opt.zero_grad()
            loss.backward(retain_graph=True)
            self.opt.step()
        return [l.item() for l in losses]

    def update_joint(self, x, adj, batch):
        """All agents' losses in one backward, then a single step."""
        losses = self.td_losses(x, adj, batch)
        self.opt.zero_grad()
        torch.stack(losses).sum().backward()
        self.opt.step()
        return [l.item() for l in losses]
