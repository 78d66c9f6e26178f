"""
expect: none
dynamic: dismiss
source: https://github.com/chxy95/Deep-Mutual-Learning/issues/5

Look-alike (deep mutual learning, two peer students). Each peer's loss is cross-entropy plus
KL(log_softmax(own logits) || softmax(Variable(peer logits))), and the loop calls
optimizers[i].step() between the two backward passes, with no retain_graph. It looks like a
rebuilt loss tensor and like an optimizer step between two backwards through one graph, but
on current PyTorch `Variable(t)` hands back a new tensor without history, so the peer's
prediction is a constant target: each loss only reaches its own network, the first step never
touches a tensor the second backward needs, and no graph is backpropagated twice (the linked
issue asked whether retain_graph=True is needed; the answer there was to make the peer output
a detached target, which is what this code already does). The asserts check that loss i gives
no gradient to peer j, that 31 epochs run without retain_graph or in-place errors, that the
run equals one using an explicit .detach(), and that both peers learn.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(64, 10)
Y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 0.5).long()


def make_peers(seed):
    torch.manual_seed(seed)
    models = [nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)) for _ in range(2)]
    optimizers = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in models]
    return models, optimizers


loss_ce = nn.CrossEntropyLoss()
loss_kl = nn.KLDivLoss(reduction="batchmean")


def train_one_epoch(models, optimizers, use_detach=False):
    record = []
    for images, labels in zip(X.split(16), Y.split(16)):
        outputs = [model(images) for model in models]
        for i in range(len(models)):
            ce_loss = loss_ce(outputs[i], labels)
            kl_loss = 0
            for j in range(len(models)):
                if i != j:
                    peer = outputs[j].detach() if use_detach else Variable(outputs[j])
                    kl_loss += loss_kl(F.log_softmax(outputs[i], dim=1), F.softmax(peer, dim=1))
            loss = ce_loss + kl_loss / (len(models) - 1)
            optimizers[i].zero_grad()
            loss.backward()
            optimizers[i].step()
            record.append(loss.item())
    return record


models, optimizers = make_peers(1)
out = [m(X[:16]) for m in models]
peer_target = F.softmax(Variable(out[1]), dim=1)
assert not peer_target.requires_grad
l0 = loss_ce(out[0], Y[:16]) + loss_kl(F.log_softmax(out[0], 1), peer_target)
g_peer = torch.autograd.grad(l0, list(models[1].parameters()), allow_unused=True)
assert all(g is None for g in g_peer), "peer 0's loss does not reach peer 1"

first = train_one_epoch(models, optimizers)
for _ in range(30):
    last = train_one_epoch(models, optimizers)

models_d, optimizers_d = make_peers(1)
for _ in range(31):
    train_one_epoch(models_d, optimizers_d, use_detach=True)
assert all(torch.equal(p, q) for m, md in zip(models, models_d)
           for p, q in zip(m.parameters(), md.parameters())), "Variable(...) behaves as detach()"

acc = [(m(X).argmax(1) == Y).float().mean().item() for m in models]
assert sum(last) < 0.5 * sum(first) and min(acc) > 0.8, (sum(first), sum(last), acc)
print(f"mutual learning loss {sum(first):.3f} -> {sum(last):.3f}; peer accuracies {acc[0]:.2f}, {acc[1]:.2f}")
