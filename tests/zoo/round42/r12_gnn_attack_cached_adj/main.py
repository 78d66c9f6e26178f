"""
expect: GL004 main.py:44
dynamic: confirm
source: https://github.com/sigeisler/robustness_of_gnns_at_scale/issues/4

A gradient-based structure attack (PR-BCD style) on a GCN. Each attack step samples a fresh
block of candidate edges, builds a leaf `perturbed_edge_weight`, runs the frozen victim GCN
and takes the gradient of the attack loss with respect to that leaf. The victim was switched
to train() mode (as in the report), and in train mode the GCN caches its normalised adjacency
in `self.adj_preped` - a tensor that still carries the graph of the first step. From step two
on, the forward reuses that stale tensor: backward runs into step one's freed graph and
raises "Trying to backward through the graph a second time". The reporter then passed
retain_graph=True, which silences the error but keeps step one's graph alive for the whole
attack: every later backward walks back into it, the step-one leaf keeps accumulating
gradient, and the current leaf gets grad None (the reporter's exact symptom). The asserts
show the error without retain_graph, the carried graph with it (old leaf grad grows k-fold,
the same cached node sits in every step's graph, current grads are None), and that with the
cache released (eval mode) every step's leaf gets its own gradient.
"""
import torch
import torch.nn.functional as F

from gcn import CachedGCN

torch.manual_seed(0)
torch.set_num_threads(1)

N, FEAT, CLS = 30, 8, 3
x = torch.randn(N, FEAT)
y = torch.randint(0, CLS, (N,))
clean_edges = torch.randint(0, N, (2, 60))
clean_w = torch.ones(60)


def attack(model, n_steps, block=20):
    leaves, cached_nodes = [], []
    for step in range(n_steps):
        cand = torch.randint(0, N, (2, block))
        perturbed_edge_weight = torch.full((block,), 0.01, requires_grad=True)
        edge_index = torch.cat([clean_edges, cand], 1)
        edge_weight = torch.cat([clean_w, perturbed_edge_weight])
        logits = model(x, edge_index, edge_weight)
        loss = -F.cross_entropy(logits, y)  # the attacker maximises the victim's loss
        loss.backward(retain_graph=True)
        leaves.append(perturbed_edge_weight)
        if model.adj_preped is not None:
            cached_nodes.append(model.adj_preped.grad_fn)
    return leaves, cached_nodes


def victim():
    torch.manual_seed(1)
    m = CachedGCN(FEAT, 16, CLS)
    for p in m.parameters():
        p.requires_grad_(False)
    return m.train()


# 1) what the reporter saw first: without retain_graph the second step fails
m = victim()
edge_w = torch.cat([clean_w, torch.full((20,), 0.01, requires_grad=True)])
edge_i = torch.cat([clean_edges, torch.randint(0, N, (2, 20))], 1)
(-F.cross_entropy(m(x, edge_i, edge_w), y)).backward()
try:
    (-F.cross_entropy(m(x, edge_i, torch.cat([clean_w, torch.full((20,), 0.01, requires_grad=True)])), y)).backward()
    raise AssertionError("expected the stale cached graph to fail")
except RuntimeError as e:
    assert "second time" in str(e)

# 2) with retain_graph=True: the first step's graph is carried through the whole attack
m = victim()
leaves, cached = attack(m, n_steps=5)
first = leaves[0].grad.clone()
assert all(leaf.grad is None for leaf in leaves[1:]), "current perturbation gets no gradient"
assert all(node is cached[0] for node in cached), "same step-1 node reused in every graph"
m2 = victim()
one, _ = attack(m2, n_steps=1)
assert torch.allclose(first, 5 * one[0].grad, atol=1e-6), "old leaf hit by every backward"

# 3) the cache released (eval mode): each step's own leaf gets its gradient
m3 = victim().eval()
leaves3, _ = attack(m3, n_steps=5)
assert all(leaf.grad is not None and leaf.grad.abs().sum() > 0 for leaf in leaves3)

print(f"retain_graph run: step-1 leaf grad norm {first.norm():.4f} (= 5x one step), "
      f"later leaves without grad: {sum(l.grad is None for l in leaves[1:])}")
