"""
expect: GL003 48
dynamic: confirm
source: https://github.com/facexteam/pytorch-cifar/blob/e618752f1c847c83dc1dfd0c97f5da4aa68bfe98/models/large_margin_module.py

facexteam/pytorch-cifar trains ResNet embeddings with face-recognition margin heads
(CosFace, SphereFace, ArcFace). In this version of LargeMarginModule_Arcface the angle
was computed from the .data of the cosine matrix, the margin was added, and the logits
for the loss were built from the .data of the shifted angle; since that tensor no
longer required grad, the code called requires_grad_() on it (and on the angle) so
that loss.backward() would run. The switch only turns the logits into a fresh leaf: cross-entropy backpropagates
into that leaf and stops, so neither the class weights nor the embedding network get
any gradient and SGD never moves them. The author's next commit (65a926c) takes the
arccos on the graph, with a comment that theta now requires grad, and drops the
requires_grad_ calls. This reduction keeps one cut and one switch: with the buggy head
the class weights and the backbone have grad None and stay bit-identical over the
training steps; the fixed head trains and its loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLS, IN_DIM, EMB = 5, 20, 8


class ArcFaceModule(nn.Module):
    def __init__(self, embedding_net, n_classes, emb_dim, scale=16.0, m=0.3, fixed=False):
        super().__init__()
        self.embedding_net = embedding_net
        self.weight = nn.Parameter(torch.empty(n_classes, emb_dim))
        nn.init.xavier_uniform_(self.weight)
        self.scale, self.m = scale, m
        self.fixed = fixed

    def forward(self, x, targets):
        emb = self.embedding_net(x)
        cos_theta = F.linear(F.normalize(emb, dim=1), F.normalize(self.weight, dim=1))
        margin = torch.zeros_like(cos_theta).scatter_(1, targets.view(-1, 1), self.m)
        if self.fixed:
            theta = cos_theta.clamp(-1 + 1e-6, 1 - 1e-6).acos()
            output_for_loss = torch.cos(theta + margin) * self.scale
        else:
            theta = cos_theta.data.acos()
            output_for_loss = torch.cos(theta + margin) * self.scale
            output_for_loss.requires_grad_()
        output_for_predict = cos_theta * self.scale
        return output_for_loss, output_for_predict


def make_data(n=80):
    protos = torch.randn(N_CLS, IN_DIM) * 2.0
    y = torch.randint(0, N_CLS, (n,))
    return protos[y] + 0.4 * torch.randn(n, IN_DIM), y


def train(fixed, steps=30):
    torch.manual_seed(3)
    net = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
    model = ArcFaceModule(net, N_CLS, EMB, fixed=fixed)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    before = [p.detach().clone() for p in model.parameters()]
    x, y = make_data()
    losses = []
    for _ in range(steps):
        logits, _ = model(x, y)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, before, losses


def main():
    model, before, losses = train(fixed=False)
    assert model.weight.grad is None
    assert all(p.grad is None for p in model.embedding_net.parameters())
    assert all(torch.equal(p.detach(), b) for p, b in zip(model.parameters(), before))

    model, before, losses_f = train(fixed=True)
    assert model.weight.grad is not None and model.weight.grad.abs().sum() > 0
    assert all(not torch.equal(p.detach(), b) for p, b in zip(model.parameters(), before))
    assert losses_f[-1] < 0.5 * losses_f[0]

    print("requires_grad_ on cut logits: nothing trains (loss stuck at %.3f)" % losses[-1])
    print("logits on the graph: loss %.3f -> %.3f" % (losses_f[0], losses_f[-1]))


if __name__ == "__main__":
    main()
