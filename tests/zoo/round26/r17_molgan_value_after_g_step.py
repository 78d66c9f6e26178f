"""
expect: GL005 76
dynamic: confirm
source: https://github.com/kfzyqin/Implementation-MolGAN-PyTorch/issues/1

In this MolGAN port the generator step does train_step_G.backward(retain_graph=True),
then g_optimizer.step(), and only then train_step_V.backward() for the reward (value)
network. The value loss was built on the same generated graphs (edges_hat, nodes_hat),
so its backward runs through the generator's saved weights that the optimizer has just
rewritten in place; users on PyTorch >= 1.5 got "modified by an inplace operation" at
train_step_V.backward(). Here a small molecular-graph generator, critic and value
network reproduce that step; the asserts show the failure and that running both
backward passes before either step trains fine.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
Z, N_ATOMS, ATOM_T, BOND_T, B = 8, 5, 4, 3, 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(Z, 64), nn.Tanh())
        self.edges = nn.Linear(64, N_ATOMS * N_ATOMS * BOND_T)
        self.nodes = nn.Linear(64, N_ATOMS * ATOM_T)

    def forward(self, z):
        h = self.body(z)
        e = self.edges(h).view(-1, N_ATOMS, N_ATOMS, BOND_T)
        return (e + e.transpose(1, 2)) / 2, self.nodes(h).view(-1, N_ATOMS, ATOM_T)


class GraphScorer(nn.Module):   # used for both the critic D and the value network V
    def __init__(self, squash=False):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_ATOMS * N_ATOMS * BOND_T + N_ATOMS * ATOM_T, 64),
                                 nn.Tanh(), nn.Linear(64, 1))
        self.squash = squash

    def forward(self, edges, nodes):
        out = self.net(torch.cat([edges.flatten(1), nodes.flatten(1)], -1))
        return torch.sigmoid(out) if self.squash else out


def reward(nodes_hat):
    atoms = nodes_hat.detach().argmax(-1).numpy()
    return torch.from_numpy((atoms == 0).mean(1, keepdims=True).astype(np.float32))


class Solver:
    def __init__(self):
        self.G, self.D, self.V = Generator(), GraphScorer(), GraphScorer(squash=True)
        self.g_optimizer = torch.optim.Adam(self.G.parameters(), lr=1e-3)
        self.v_optimizer = torch.optim.Adam(self.V.parameters(), lr=1e-3)

    def generator_losses(self, la=0.5):
        edges_logits, nodes_logits = self.G(torch.randn(B, Z))
        edges_hat, nodes_hat = F.softmax(edges_logits, -1), F.softmax(nodes_logits, -1)
        logits_fake = self.D(edges_hat, nodes_hat)
        value_logit_fake = self.V(edges_hat, nodes_hat)
        loss_V = torch.abs(value_logit_fake - reward(nodes_hat)).mean()
        loss_G, loss_RL = -logits_fake.mean(), -value_logit_fake.mean()
        alpha = torch.abs(loss_G.detach() / loss_RL.detach())
        return la * loss_G + (1 - la) * alpha * loss_RL, loss_V

    def train_step(self):
        train_step_G, train_step_V = self.generator_losses()
        self.g_optimizer.zero_grad()
        self.v_optimizer.zero_grad()
        train_step_G.backward(retain_graph=True)
        self.g_optimizer.step()
        train_step_V.backward()
        self.v_optimizer.step()


class FixedSolver(Solver):
    def train_step(self):
        train_step_G, train_step_V = self.generator_losses()
        self.g_optimizer.zero_grad()
        self.v_optimizer.zero_grad()
        train_step_G.backward(retain_graph=True)
        v_grads = torch.autograd.grad(train_step_V, list(self.V.parameters()))
        for p, g in zip(self.V.parameters(), v_grads):
            p.grad = g
        self.g_optimizer.step()
        self.v_optimizer.step()


solver = Solver()
try:
    solver.train_step()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

fixed = FixedSolver()
v_before = [p.detach().clone() for p in fixed.V.parameters()]
for _ in range(5):
    fixed.train_step()
assert any(not torch.equal(a, b) for a, b in zip(v_before, fixed.V.parameters()))
print("ok: generator step before the value-network backward breaks the shared graph")
