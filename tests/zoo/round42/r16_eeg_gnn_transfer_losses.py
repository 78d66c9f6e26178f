"""
expect: GL002 75
dynamic: confirm
source: https://github.com/pwjworks/emoiton_TL-GNNs/blob/21e1360d63fa9b188dcee01eba5b328dc0644009/main.py

Cross-subject EEG emotion recognition with a graph network over electrodes, adapted to the
unseen subject with a domain-adversarial loss. transfer_train() pairs each labelled source
batch with every unlabelled target batch, appends each domain loss to a Python list and adds
torch.mean(torch.tensor(transfer_losses)) to the classification loss. torch.tensor() copies
the values of the loss tensors into a new leaf, so the adaptation term is a constant: the
domain discriminator (held by the optimizer) never gets a gradient and the gradient reversal
never reaches the graph encoder. The asserts show the discriminator's .grad stays None and the
encoder ends bit-identical to a run without any adaptation term, while torch.stack gives
both a gradient.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")
torch.manual_seed(0)
torch.set_num_threads(1)

N_ELEC, BANDS, HID, CLASSES = 8, 5, 16, 3
adj = (torch.rand(N_ELEC, N_ELEC) > 0.6).float()
adj = ((adj + adj.t() + torch.eye(N_ELEC)) > 0).float()
adj = adj / adj.sum(1, keepdim=True)


class ElectrodeGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(BANDS, HID), nn.Linear(HID, HID)
        self.cls = nn.Linear(HID, CLASSES)

    def forward(self, x):  # x: (graphs, electrodes, bands)
        h = F.relu(adj @ self.lin1(x))
        h = F.relu(adj @ self.lin2(h))
        f = h.mean(1)
        return self.cls(f), f


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return -g


class DomainAdversarialLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.disc = nn.Sequential(nn.Linear(HID, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, f_s, f_t):
        d = self.disc(GradReverse.apply(torch.cat([f_s, f_t])))
        lbl = torch.cat([torch.ones(len(f_s), 1), torch.zeros(len(f_t), 1)])
        return F.binary_cross_entropy_with_logits(d, lbl)


def transfer_train(model, train_batches, test_batches, crit, optimizer, dann_loss):
    for x_s, y_s in train_batches:
        optimizer.zero_grad()
        output, f_s = model(x_s)
        loss = crit(output, y_s)
        transfer_losses = []
        for x_t in test_batches:
            _, f_t = model(x_t)
            transfer_losses.append(dann_loss(f_s, f_t))
        loss += torch.mean(torch.tensor(transfer_losses))
        loss.backward()
        optimizer.step()
    return loss


def transfer_train_stacked(model, train_batches, test_batches, crit, optimizer, dann_loss):
    for x_s, y_s in train_batches:
        optimizer.zero_grad()
        output, f_s = model(x_s)
        loss = crit(output, y_s)
        transfer_losses = [dann_loss(f_s, model(x_t)[1]) for x_t in test_batches]
        loss = loss + torch.stack(transfer_losses).mean()
        loss.backward()
        optimizer.step()


def plain_train(model, train_batches, crit, optimizer):
    for x_s, y_s in train_batches:
        optimizer.zero_grad()
        output, _ = model(x_s)
        crit(output, y_s).backward()
        optimizer.step()


def subject(n, shift):
    return torch.randn(n, N_ELEC, BANDS) + shift


train_batches = [(subject(16, 0.0), torch.randint(0, CLASSES, (16,))) for _ in range(3)]
test_batches = [subject(16, 1.0) for _ in range(2)]
crit = nn.CrossEntropyLoss()


def fresh():
    torch.manual_seed(7)
    model, dann_loss = ElectrodeGCN(), DomainAdversarialLoss()
    opt = torch.optim.Adam(list(model.parameters()) + list(dann_loss.parameters()), lr=1e-2)
    return model, dann_loss, opt


model, dann_loss, optimizer = fresh()
transfer_train(model, train_batches, test_batches, crit, optimizer, dann_loss)
assert all(p.grad is None for p in dann_loss.parameters()), "discriminator never gets a gradient"

ref, _, ref_opt = fresh()
plain_train(ref, train_batches, crit, ref_opt)
assert all(torch.equal(a, b) for a, b in zip(model.parameters(), ref.parameters())), \
    "the encoder trained exactly as if there were no adaptation term"

good, good_loss, good_opt = fresh()
transfer_train_stacked(good, train_batches, test_batches, crit, good_opt, good_loss)
assert all(p.grad is not None for p in good_loss.parameters())
assert not torch.equal(good.lin1.weight, ref.lin1.weight), "stacked term reaches the encoder"
print("tensor(list) transfer term: no discriminator grad, encoder identical to no-adaptation run; "
      "torch.stack restores both")
