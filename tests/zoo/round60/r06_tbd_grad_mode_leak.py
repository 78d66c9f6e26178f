"""
expect: GL003 118
dynamic: confirm
source: https://github.com/davidmascharka/tbd-nets/issues/8

TbD-nets trains a neural module network: each question is a program, and the network executes it
module by module (attend, then answer) over image features. In the training notebook the accuracy
helper check_accuracy() turned gradients off with a bare torch.set_grad_enabled(False) and never
turned them back on. train_epoch() calls it at the end of every epoch, so from the second epoch on
every forward pass of the module network runs with autograd disabled: the logits and the attention
penalty come out of the record, and loss.backward() raises "element 0 of tensors does not require
grad" (adding requires_grad to the loss, the usual workaround, would silently freeze the model
after one epoch). The maintainer's fix puts torch.set_grad_enabled(True) at the top of
train_epoch(). This program rebuilds that notebook at toy size: an attend/exist module network over
random feature maps. The asserts show epoch 1 updates the weights, that grad mode is still off when
epoch 2 starts, that its forward output has no grad_fn and backward raises, and that re-enabling
grad at the start of each epoch trains all epochs and raises accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

C, S, K = 8, 4, 3          # feature channels, spatial size, number of attend modules


class AttendModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(C, 1, 1)

    def forward(self, feats, att):
        return torch.sigmoid(self.conv(feats * att))


class ExistModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, att):
        flat = att.flatten(1)
        return self.fc(torch.stack((flat.max(1).values, flat.mean(1)), 1))


class ModuleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.attend = nn.ModuleList([AttendModule() for _ in range(K)])
        self.exist = ExistModule()
        self.attention_sum = 0

    def forward(self, feats, programs):
        self.attention_sum = 0
        outs = []
        for i in range(feats.shape[0]):
            f = feats[i:i + 1]
            att = torch.ones(1, 1, S, S)
            for module_id in programs[i][:-1]:
                att = self.attend[module_id](f, att)
                self.attention_sum = self.attention_sum + att.sum()
            outs.append(self.exist(att))
        return torch.cat(outs)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.rand(n, C, S, S, generator=g) * 0.3
    programs, answers = [], []
    for i in range(n):
        k = int(torch.randint(0, K, (1,), generator=g))
        present = bool(torch.rand(1, generator=g) < 0.5)
        if present:
            r, c = torch.randint(0, S, (2,), generator=g).tolist()
            feats[i, k, r, c] = 1.0
        programs.append([k, -1])
        answers.append(int(present))
    return feats, programs, torch.tensor(answers)


train_set, val_set = make_split(192, 1), make_split(64, 2)


def check_accuracy(net, split):
    torch.set_grad_enabled(False)
    feats, programs, answers = split
    preds = net(feats, programs).argmax(1)
    return (preds == answers).float().mean().item()


def train_epoch(net, optimizer, reenable_grad):
    if reenable_grad:
        torch.set_grad_enabled(True)
    feats, programs, answers = train_set
    for start in range(0, feats.shape[0], 16):
        optimizer.zero_grad()
        outs = net(feats[start:start + 16], programs[start:start + 16])
        loss = F.cross_entropy(outs, answers[start:start + 16])
        loss = loss + net.attention_sum * 2.5e-5
        loss.backward()
        optimizer.step()
    return check_accuracy(net, val_set)


# original notebook: the accuracy helper leaves grad mode off
torch.manual_seed(3)
net = ModuleNet()
optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
before = [p.detach().clone() for p in net.parameters()]
train_epoch(net, optimizer, reenable_grad=False)
assert any(not torch.equal(b, p) for b, p in zip(before, net.parameters()))
assert not torch.is_grad_enabled()
probe = net(train_set[0][:4], train_set[1][:4])
assert probe.grad_fn is None
try:
    train_epoch(net, optimizer, reenable_grad=False)
    raise AssertionError("expected backward to fail in epoch 2")
except RuntimeError as err:
    assert "does not require grad" in str(err)
torch.set_grad_enabled(True)

# fixed notebook: grad turned back on at the start of every epoch
torch.manual_seed(3)
net = ModuleNet()
optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
start_acc = check_accuracy(net, val_set)
accs = [train_epoch(net, optimizer, reenable_grad=True) for _ in range(12)]
torch.set_grad_enabled(True)
assert accs[-1] >= 0.9 and accs[-1] > start_acc + 0.2, (start_acc, accs)
print("ok: leaked set_grad_enabled(False) breaks epoch 2; re-enabling trains", round(start_acc, 2), "->", round(accs[-1], 2))
