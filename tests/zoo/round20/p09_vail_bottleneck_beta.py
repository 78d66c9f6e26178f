"""
expect: GL004 68
expect: GL005 70
dynamic: confirm
source: https://github.com/reinforcement-learning-kr/lets-do-irl/issues/12

In an imitation-learning repository (VAIL), `train_vdb` loops over discriminator updates,
updating the bottleneck multiplier as `beta = max(0, beta + alpha_beta * bottleneck_loss)`; beta
thus becomes a tensor that carries the previous update's graph into the next loss, and the code
calls `vdb_loss.backward(retain_graph=True)`. With the optimizer stepping between those
backward calls, recent PyTorch raises "modified by an inplace operation" (the reported error);
without the step, the graph simply grows every iteration. The program asserts both, and that
keeping beta a plain number gives a constant graph and a clean run.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
S, A, Z = 6, 2, 8


class VDB(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(S + A, 32)
        self.mu, self.logvar = nn.Linear(32, Z), nn.Linear(32, Z)
        self.out = nn.Linear(Z, 1)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return torch.sigmoid(self.out(z)), mu, logvar


def kl_divergence(mu, logvar):
    return 0.5 * (mu.pow(2) + logvar.exp() - logvar - 1).sum(1)


def n_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


def train_vdb(vdb, states, actions, vdb_optim, demonstrations, beta, args, step=True, plain=False):
    criterion = torch.nn.BCELoss()
    sizes = []
    for _ in range(args["vdb_update_num"]):
        learner, l_mu, l_logvar = vdb(torch.cat([states, actions], dim=1))
        expert, e_mu, e_logvar = vdb(demonstrations)
        kld = 0.5 * (kl_divergence(l_mu, l_logvar).mean() + kl_divergence(e_mu, e_logvar).mean())
        bottleneck_loss = kld - args["i_c"]
        if plain:   # fix: the Lagrange multiplier is a number, not part of the graph
            beta = max(0.0, beta + args["alpha_beta"] * bottleneck_loss.item())
        else:
            beta = max(0, beta + args["alpha_beta"] * bottleneck_loss)
        vdb_loss = criterion(learner, torch.ones(states.shape[0], 1)) + \
            criterion(expert, torch.zeros(demonstrations.shape[0], 1)) + beta * bottleneck_loss
        sizes.append(n_nodes(vdb_loss))
        vdb_optim.zero_grad()
        vdb_loss.backward(retain_graph=True)
        if step:
            vdb_optim.step()
    return sizes


args = {"vdb_update_num": 5, "i_c": 0.05, "alpha_beta": 1e-2}
states, actions = torch.randn(32, S), torch.randn(32, A)
demos = torch.randn(32, S + A)


def fresh():
    torch.manual_seed(1)
    vdb = VDB()
    return vdb, torch.optim.Adam(vdb.parameters(), lr=1e-3)


vdb, opt = fresh()
try:
    train_vdb(vdb, states, actions, opt, demos, 0.0, args)
    err = None
except RuntimeError as e:
    err = str(e)
print("reported (with optimizer steps):", (err or "")[:80])
assert err is not None and "modified by an inplace operation" in err

vdb, opt = fresh()
sizes = train_vdb(vdb, states, actions, opt, demos, 0.0, args, step=False)
print("graph size per update without steps:", sizes)
assert all(b > a for a, b in zip(sizes, sizes[1:])), "beta carries every previous graph"

vdb, opt = fresh()
sizes_fixed = train_vdb(vdb, states, actions, opt, demos, 0.0, args, plain=True)
print("fixed graph sizes:", sizes_fixed)
assert len(set(sizes_fixed)) == 1
print("OK")
