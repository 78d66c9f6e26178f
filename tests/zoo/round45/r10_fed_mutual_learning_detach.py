"""expect: none
dynamic: dismiss
source: https://github.com/wnma3mz/flearn/blob/54bbb48c66736182e9519824e0195cbc094350c2/example/FedMutualLearning/FML.py

Federated mutual learning: every client keeps a shared "meme" model (sent to the server for averaging)
and a private local model. In each batch both models predict, and each one is trained with
cross-entropy plus a distillation term towards the other model's output, which is passed through
.detach() so that each distillation term only moves the model it belongs to. The two losses are then
backpropagated and stepped one after the other with their own optimizers. The detaches are on purpose and
the two graphs share no saved tensors, so stepping the first optimizer before the second backward is
safe. The asserts show the meme loss gives the local model no gradient (and vice versa), both models
change, and both losses fall over a few local epochs; the server-side average then runs on the meme model.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class KDLoss(nn.Module):
    def __init__(self, T=2.0):
        super().__init__()
        self.T = T

    def forward(self, student_logits, teacher_logits):
        return F.kl_div(F.log_softmax(student_logits / self.T, dim=1),
                        F.softmax(teacher_logits / self.T, dim=1), reduction="batchmean") * self.T ** 2


class FMLTrainer:
    def __init__(self, model, mu=2.0):
        self.model = model
        self.local_model = copy.deepcopy(model)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        self.local_optimizer = torch.optim.SGD(self.local_model.parameters(), lr=0.05, momentum=0.9)
        self.kd_loss = KDLoss()
        self.mu = mu
        self.checked = False

    def batch(self, data, target):
        output = self.model(data)
        loss = F.cross_entropy(output, target)
        local_output = self.local_model(data)
        local_loss = F.cross_entropy(local_output, target)
        loss = loss + self.mu * self.kd_loss(output, local_output.detach())
        local_loss = local_loss + self.mu * self.kd_loss(local_output, output.detach())

        self.optimizer.zero_grad()
        self.local_optimizer.zero_grad()
        loss.backward()
        if not self.checked:
            assert all(p.grad is None for p in self.local_model.parameters())
        self.optimizer.step()

        local_loss.backward()
        if not self.checked:
            assert all(p.grad.abs().sum() > 0 for p in self.local_model.parameters())
            self.checked = True
        self.local_optimizer.step()
        return loss.item(), local_loss.item()


def net():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))


def client_data(seed, n=128):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    y = (x[:, :4].argmax(dim=1) + seed) % 4               # non-iid label skew per client
    return [(x[i:i + 32], y[i:i + 32]) for i in range(0, n, 32)]


torch.manual_seed(0)
torch.set_num_threads(1)

global_model = net()
clients = [FMLTrainer(copy.deepcopy(global_model)) for _ in range(2)]
for c in clients:                                          # private models start from their own init
    for m in c.local_model.modules():
        if isinstance(m, nn.Linear):
            m.reset_parameters()
datasets = [client_data(s) for s in range(2)]
before = [copy.deepcopy(c.model.state_dict()) for c in clients]
before_local = [copy.deepcopy(c.local_model.state_dict()) for c in clients]

curves = []
for trainer, data in zip(clients, datasets):
    epoch_losses = []
    for _ in range(5):
        meme, local = zip(*[trainer.batch(x, y) for x, y in data])
        epoch_losses.append((sum(meme) / len(meme), sum(local) / len(local)))
    curves.append(epoch_losses)
    assert epoch_losses[-1][0] < epoch_losses[0][0] and epoch_losses[-1][1] < epoch_losses[0][1]

for c, b, bl in zip(clients, before, before_local):
    assert any(not torch.equal(b[k], v) for k, v in c.model.state_dict().items())
    assert any(not torch.equal(bl[k], v) for k, v in c.local_model.state_dict().items())

with torch.no_grad():                                      # FedAvg of the meme models
    for name, p in global_model.named_parameters():
        p.copy_(torch.stack([dict(c.model.named_parameters())[name] for c in clients]).mean(0))

print("client 0 (meme, local) loss first/last epoch:", [tuple(round(v, 3) for v in e) for e in (curves[0][0], curves[0][-1])])
