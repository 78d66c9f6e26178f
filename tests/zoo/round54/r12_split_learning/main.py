"""
expect: none
dynamic: dismiss
source: https://github.com/TL-System/plato/blob/000c9648aa70729c59da2d097e287feb823e2d13/examples/split_learning/split_learning_trainer.py

Split learning in a federated setting: the client runs the layers up to the cut layer and ships
only the activations, the server turns them into a fresh leaf with detach().requires_grad_(True),
trains its half, and returns the gradient stored on that leaf; the client then recomputes its
forward pass and calls backward(gradient) on its output. The detach and the requires_grad_ switch
look like a severed graph, but the gradient is carried across by hand. The asserts compare the
client's gradient with the gradient of an end-to-end model on the same batch (they match), and
check that both halves move and that the loss falls over a few rounds.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from split_trainer import SplitClient, SplitServer

torch.manual_seed(0)
torch.set_num_threads(1)

front = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 16), nn.Tanh())
back = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 3))
x = torch.randn(64, 10)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()

# reference: the same two halves trained end to end
ref_front, ref_back = copy.deepcopy(front), copy.deepcopy(back)
F.cross_entropy(ref_back(ref_front(x)), y).backward()
ref_grads = [p.grad.clone() for p in ref_front.parameters()]

client, server = SplitClient(front), SplitServer(back)


def split_round():
    acts = client.extract(x)
    loss, cut_grad = server.train_step(acts, y)
    client.apply_server_gradients(cut_grad)
    return loss


start = [p.detach().clone() for p in front.parameters()] + [p.detach().clone() for p in back.parameters()]
first_loss = split_round()
for p, g in zip(front.parameters(), ref_grads):
    assert p.grad is not None and torch.allclose(p.grad, g, atol=1e-6), "client gets the end-to-end gradient"
now = list(front.parameters()) + list(back.parameters())
assert all(not torch.equal(a, b) for a, b in zip(start, now)), "both halves should be updated"

losses = [split_round() for _ in range(40)]
assert losses[-1] < first_loss * 0.8, (first_loss, losses[-1])
print("split learning: loss %.3f -> %.3f" % (first_loss, losses[-1]))
