"""
expect: GL001 68
dynamic: confirm
source: https://github.com/rainorangelemon/gnn-motion-planning/blob/b51659f50d1376b0630aa67e68bd4383563f2c6e/model.py#L141

A GNN explorer for sampling-based motion planning encodes every roadmap node,
runs a few rounds of message passing and scores edges as a policy for which
edge to expand next.  Obstacle information enters through a separate
"free-space" code (an MLP on the configuration plus attention over obstacle
embeddings) that is fed to the planner as `node_free_code.detach()`: the
design keeps the policy loss from shaping the collision code, which is meant to
be trained by its own collision-classification head (`self.node_free`).  In the
training script those collision losses are commented out and `loss =
policy_loss` is the only objective, so nothing ever reaches the free-space MLP,
the obstacle encoder or the attention: they stay at their random
initialisation while the planner trains on their outputs.  The reduction keeps
the encoder/process/decoder structure on a small random roadmap.  The asserts
show that with the policy loss alone those modules have no gradient and are
unchanged after training while the policy layers move, and that re-enabling
the collision loss on the detached code trains them.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, o), nn.ReLU(), nn.Linear(o, o))


class ExplorerGNN(nn.Module):
    def __init__(self, config_size=2, obs_size=4, embed=16):
        super().__init__()
        self.embed = embed
        self.node_code = mlp(config_size * 4, embed)
        self.edge_code = mlp(config_size * 2, embed)
        self.node_free_code = mlp(config_size, embed)
        self.obs_node_code = mlp(obs_size, embed)
        self.query = nn.Linear(embed, embed, bias=False)
        self.goal_encoder = nn.Parameter(torch.rand(embed))
        self.encoder = nn.Linear(embed * 4, embed)
        self.process = nn.Linear(embed * 2, embed)
        self.decoder = nn.Linear(embed * 2, embed)
        self.policy = nn.Sequential(nn.Linear(embed * 2, embed), nn.ReLU(), nn.Linear(embed, 1, bias=False))
        self.node_free = nn.Linear(embed, 1)  # collision head, needs its own loss

    def forward(self, goal_index, v, obstacles, edge_index, loop=3):
        src, dst = edge_index
        goal = v[goal_index]
        node_code = self.node_code(torch.cat((v, goal.expand_as(v), (v - goal) ** 2, v - goal), -1))
        edge_code = self.edge_code(torch.cat((v[src], v[dst]), -1))

        node_free_code = self.node_free_code(v)
        obs_code = self.obs_node_code(obstacles)
        attn = torch.softmax(self.query(node_free_code) @ obs_code.t() / math.sqrt(self.embed), -1)
        node_free_code = node_free_code + attn @ obs_code

        h_0 = node_code.new_zeros(len(v), self.embed)
        h_0[goal_index, :] = h_0[goal_index, :] + self.goal_encoder
        h_i = h_0
        deg = torch.zeros(len(v)).index_add(0, dst, torch.ones(len(dst))).clamp(min=1)
        for _ in range(loop):
            encode = self.encoder(torch.cat((node_code, node_free_code.detach(), h_0, h_i), -1))
            msg = F.relu(self.process(torch.cat((encode[src], edge_code), -1)))
            h_i = torch.zeros(len(v), self.embed).index_add(0, dst, msg) / deg[:, None]
        decode = self.decoder(torch.cat((node_code, h_i), -1))
        policy = self.policy(torch.cat((decode[src], decode[src] - decode[dst]), -1)).squeeze(-1)
        return policy, node_free_code


def random_roadmap(n=10):
    v = torch.rand(n, 2)
    pairs = [(i, (i + 1) % n) for i in range(n)] + [(i, (i + 3) % n) for i in range(n)]
    src = [a for a, b in pairs] + [b for a, b in pairs]
    dst = [b for a, b in pairs] + [a for a, b in pairs]
    return v, torch.tensor([src, dst])


def train(with_collision_loss, steps=15):
    torch.manual_seed(0)
    model = ExplorerGNN()
    v, edge_index = random_roadmap()
    obstacles = torch.rand(3, 4)
    free_label = (torch.rand(len(v), 1) > 0.3).float()
    start, goal = 0, 5
    frontier = (edge_index[0] == start).nonzero().squeeze(-1)
    best = 1  # index (inside the frontier) of the edge the oracle expands next

    watched = list(model.node_free_code.parameters()) + list(model.obs_node_code.parameters())
    before = [p.detach().clone() for p in watched]
    policy_before = [p.detach().clone() for p in model.policy.parameters()]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        policy, free_code = model(goal, v, obstacles, edge_index)
        policy_loss = -policy[frontier].log_softmax(dim=0)[best]
        loss = policy_loss
        if with_collision_loss:
            node_loss = F.binary_cross_entropy_with_logits(model.node_free(free_code), free_label)
            loss = policy_loss + node_loss
        loss.backward()
        grads = [p.grad for p in watched]
        opt.step()
    moved = any(not torch.equal(a, b) for a, b in zip(before, watched))
    policy_moved = any(not torch.equal(a, b) for a, b in zip(policy_before, model.policy.parameters()))
    return grads, moved, policy_moved


grads, moved, policy_moved = train(with_collision_loss=False)
assert all(g is None for g in grads), "free-space encoder should get no gradient"
assert not moved and policy_moved

grads, moved, policy_moved = train(with_collision_loss=True)
assert all(g is not None for g in grads)
assert moved and policy_moved

print("r06 ok")
