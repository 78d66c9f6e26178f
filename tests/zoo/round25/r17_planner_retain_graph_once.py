"""
expect: none
dynamic: dismiss
source: https://github.com/liyingyanUCAS/WoTE/issues/4

The question asks why the WoTE planner's Lightning module calls
loss.backward(retain_graph=True). Here the agent module backs up the imitation loss
with retain_graph=True and then the world-model reward loss built on the same BEV
features, inside one training step; every step builds a fresh graph and nothing is
carried to the next step, so the retained graph dies with the step. The asserts
check that the graph size per step stays constant, that no tensor from an earlier
step keeps a grad_fn, and that the gradients equal one backward of the summed loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class PlannerAgent(nn.Module):
    def __init__(self, obs=12, bev=24, n_traj=5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs, bev), nn.ReLU())
        self.traj_head = nn.Linear(bev, n_traj * 2)
        self.world_model = nn.Sequential(nn.Linear(bev + n_traj * 2, 16), nn.ReLU(), nn.Linear(16, 1))


class AgentLightningModule:
    def __init__(self, agent, two_backwards=True):
        self.agent = agent
        self.opt = torch.optim.Adam(agent.parameters(), lr=1e-3)
        self.two_backwards = two_backwards
        self.last_outputs = {}

    def training_step(self, obs, expert_traj, reward):
        bev = self.agent.encoder(obs)
        traj = self.agent.traj_head(bev)
        imitation = F.l1_loss(traj, expert_traj)
        reward_pred = self.agent.world_model(torch.cat([bev, traj], 1)).squeeze(-1)
        wm_loss = F.mse_loss(reward_pred, reward)
        self.opt.zero_grad()
        size = graph_size(imitation + wm_loss)
        if self.two_backwards:
            imitation.backward(retain_graph=True)
            wm_loss.backward()
        else:
            (imitation + wm_loss).backward()
        grads = [p.grad.clone() for p in self.agent.parameters()]
        self.opt.step()
        self.last_outputs = {"traj": traj.detach(), "loss": imitation.item() + wm_loss.item()}
        return size, grads


agent = PlannerAgent()
a = AgentLightningModule(agent)
b = AgentLightningModule(copy.deepcopy(agent), two_backwards=False)
sizes = []
for step in range(6):
    obs = torch.randn(8, 12)
    expert = torch.randn(8, 10)
    reward = torch.randn(8)
    sa, ga = a.training_step(obs, expert, reward)
    sb, gb = b.training_step(obs, expert, reward)
    sizes.append(sa)
    for x, y in zip(ga, gb):
        assert torch.allclose(x, y, atol=1e-6)
assert len(set(sizes)) == 1, sizes
assert a.last_outputs["traj"].grad_fn is None
print("ok", sizes)
