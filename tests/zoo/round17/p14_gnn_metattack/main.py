"""
expect: none
dynamic: dismiss
source: https://github.com/ChandlerBang/pytorch-gnn-meta-attack/issues/1

pytorch-gnn-meta-attack issue #1 ("Why use retain_graph?"): a reader noticed
loss.backward(retain_graph=True) inside the training loop and that True/False makes no difference
to the result; the author agreed it is unnecessary there, and it is harmless: nothing computed in
one iteration is carried into the next except leaf weights, so each backward walks a fresh graph
plus the fixed, shared adjacency-normalisation prefix. This program rebuilds a structure attack on
a two-community graph: the surrogate GCN (surrogate.py) is trained with retain_graph=True in a loop
on an adjacency that depends on the perturbation parameters, then the meta-gradient w.r.t. the edge
changes is taken. It asserts the graph reached by backward has the same size every iteration, the
surrogate learns, and the attack gradient is finite and non-zero.
"""
import torch
import torch.nn.functional as F

from surrogate import GCN, StructurePerturbation, normalize_adj, train_surrogate


def two_community_graph(n=40, p_in=0.3, p_out=0.02, seed=0):
    gen = torch.Generator().manual_seed(seed)
    labels = (torch.arange(n) >= n // 2).long()
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    upper = (torch.rand(n, n, generator=gen) < probs).float().triu(1)
    adj = upper + upper.t()
    features = F.one_hot(labels, 2).float() + 0.8 * torch.randn(n, 2, generator=gen)
    return adj, torch.cat([features, torch.randn(n, 6, generator=gen)], 1), labels


torch.manual_seed(0)
adj, features, labels = two_community_graph()
idx_train = torch.arange(0, 40, 4)
idx_unlabeled = torch.tensor([i for i in range(40) if i % 4])

attacker = StructurePerturbation(adj)
adj_norm = normalize_adj(attacker.modified_adj())
surrogate = GCN(features.shape[1], 16, 2)
sizes, losses = train_surrogate(surrogate, features, adj_norm, labels, idx_train)

assert len(set(sizes)) == 1, sizes[:5]
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])

# self-training attack loss on unlabeled nodes, differentiated w.r.t. the edge changes
pseudo = surrogate(features, adj_norm).argmax(1).detach()
attack_loss = F.nll_loss(surrogate(features, adj_norm)[idx_unlabeled], pseudo[idx_unlabeled])
meta_grad = torch.autograd.grad(attack_loss, attacker.adj_changes)[0]
assert torch.isfinite(meta_grad).all() and meta_grad.abs().sum() > 0
acc = (surrogate(features, adj_norm).argmax(1) == labels).float().mean().item()
assert acc > 0.8, acc
print("p14 ok: retain_graph=True in a loop without carried state keeps a constant-size graph")
