"""
expect: GL002 75
dynamic: confirm
source: https://github.com/sl-93/SUPERVISED-CONTRASTIVE-LEARNING-FOR-PRE-TRAINED-LANGUAGE-MODEL-FINE-TUNING/issues/2

An implementation of supervised contrastive learning (SCL) for fine-tuning a pretrained
language model computes the contrastive term in NumPy on
hidden_state.cpu().detach().numpy() and adds the resulting number to the cross-entropy
loss; a commenter noted the SCL term can never update the encoder. This program keeps that
structure (NumPy cosine similarity, temperature, per-anchor log ratio) on a tiny encoder.
The asserts show the encoder gradient is exactly (1 - lam) times the cross-entropy gradient
(the SCL part contributes nothing) and that a torch version of the same term changes it.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)


class TinyEncoderClassifier(nn.Module):
    def __init__(self, vocab=50, dim=24, n_cls=2):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.classifier = nn.Sequential(nn.Linear(dim, 8), nn.Linear(8, n_cls))

    def forward(self, ids):
        cls_state = self.encoder(self.emb(ids))     # stands for the [CLS] hidden state
        return self.classifier(cls_state), cls_state


def contrastive_loss(temp, embedding, label):
    norm = embedding / np.linalg.norm(embedding, axis=1, keepdims=True)
    cosine_sim = norm @ norm.T
    dis = cosine_sim[~np.eye(len(norm), dtype=bool)].reshape(len(norm), -1)
    dis = np.exp(dis / temp)
    row_sum = dis.sum(axis=1)
    loss = 0.0
    for i in range(len(embedding)):
        n_i = label.tolist().count(label[i]) - 1
        inner = 0.0
        for j in range(len(embedding) - 1):
            if label[i] == label[j]:
                inner += np.log(dis[i][j] / row_sum[i])
        loss += inner / (-n_i) if n_i != 0 else 0.0
    return loss


def contrastive_loss_torch(temp, embedding, label):
    norm = F.normalize(embedding, dim=1)
    off = ~torch.eye(len(norm), dtype=torch.bool)
    dis = torch.exp((norm @ norm.T)[off].reshape(len(norm), -1) / temp)
    row_sum = dis.sum(dim=1)
    loss = embedding.new_zeros(())
    for i in range(len(embedding)):
        n_i = int((label == label[i]).sum()) - 1
        same = (label[: len(embedding) - 1] == label[i]).float()
        inner = (torch.log(dis[i] / row_sum[i]) * same).sum()
        loss = loss + (inner / (-n_i) if n_i != 0 else 0.0)
    return loss


def encoder_grad(model, ids, labels, lam, temp=0.3, torch_scl=False):
    model.zero_grad()
    logits, hiden_state = model(ids)
    cross_loss = F.cross_entropy(logits, labels)
    if torch_scl:
        contrastive_l = contrastive_loss_torch(temp, hiden_state, labels)
    else:
        contrastive_l = contrastive_loss(temp, hiden_state.cpu().detach().numpy(), labels)
    loss = (lam * contrastive_l) + (1 - lam) * (cross_loss)
    loss.backward()
    return loss.item(), model.encoder[0].weight.grad.clone()


model = TinyEncoderClassifier()
ids = torch.randint(0, 50, (16, 7))
labels = torch.randint(0, 2, (16,))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for _ in range(3):
    encoder_grad(model, ids, labels, lam=0.9)
    opt.step()

loss_scl, g_scl = encoder_grad(model, ids, labels, lam=0.9)
loss_ce, g_ce = encoder_grad(model, ids, labels, lam=0.0)
assert abs(loss_scl - 0.1 * loss_ce) > 1e-3, "the SCL term changes the reported loss"
assert torch.allclose(g_scl, 0.1 * g_ce, atol=1e-7), "encoder sees only (1-lam) * CE gradient"

_, g_torch = encoder_grad(model, ids, labels, lam=0.9, torch_scl=True)
assert not torch.allclose(g_torch, 0.1 * g_ce, atol=1e-5), "a torch SCL term does train the encoder"
print("ok: NumPy SCL term contributes", round(loss_scl - 0.1 * loss_ce, 4), "to the loss only")
