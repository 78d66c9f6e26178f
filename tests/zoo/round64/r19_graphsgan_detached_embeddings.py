"""
expect: none
dynamic: dismiss
source: https://github.com/THUDM/GraphSGAN/issues/4

GraphSGAN does semi-supervised node classification on citation graphs (Cora,
Citeseer, Pubmed) with a GAN: each node's input is its bag-of-words features
concatenated with a pre-trained network embedding, and make_input() does
`self.embedding_layer(ids).detach()  # detach temporarily`. The discriminator
step also feeds `self.G(...).detach()` as fake samples. Issue #4 asked why the
node embeddings are never updated; the authors answered that they are
pre-computed (LINE-style) embeddings that are meant to stay fixed, and the
trainable parameters live in G and D (the embedding layer is not in either
optimizer). The detach on G's output is the usual stop-gradient of the D step,
and in the G step both optimizers are zeroed so D's stray gradients are
discarded. The reproduction trains the same D/G scheme (supervised loss on a
few labelled nodes, real/fake loss, feature matching for G) on a random
"citation" dataset. The asserts show D and G both receive gradients and change,
the pre-trained embedding table is bit-identical afterwards, and D's
accuracy on the labelled nodes improves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, K_WORDS, D_EMB, N_CLS, Z = 80, 12, 6, 3, 8

classes = torch.randint(0, N_CLS, (N_NODES,))
centers = torch.randn(N_CLS, K_WORDS)
words = (centers[classes] + 0.8 * torch.randn(N_NODES, K_WORDS) > 0.5).float()
pretrained = torch.randn(N_CLS, D_EMB)[classes] + 0.5 * torch.randn(N_NODES, D_EMB)
labelled = torch.arange(0, 20)
unlabelled = torch.arange(20, N_NODES)


def log_sum_exp(x):
    return torch.logsumexp(x, dim=1)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(K_WORDS + D_EMB, 32), nn.ReLU())
        self.head = nn.Linear(32, N_CLS)

    def forward(self, x, feature=False):
        h = self.body(x)
        return (h, self.head(h)) if feature else self.head(h)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, K_WORDS + D_EMB))

    def forward(self, n):
        return self.net(torch.randn(n, Z))


class GraphSGAN:
    def __init__(self):
        self.G, self.D = Generator(), Discriminator()
        self.embedding_layer = nn.Embedding(N_NODES, D_EMB)
        self.embedding_layer.weight = nn.Parameter(pretrained.clone())
        self.Doptim = torch.optim.Adam(self.D.parameters(), lr=3e-3)
        self.Goptim = torch.optim.Adam(self.G.parameters(), lr=3e-3)
        self.g_grad_probe = None

    def make_input(self, ids):
        embedding = self.embedding_layer(ids).detach()  # pre-trained, kept fixed
        return torch.cat((words[ids], embedding), dim=1)

    def trainD(self, ids_l, y, ids_u):
        x_l, x_u = self.make_input(ids_l), self.make_input(ids_u)
        out_l = self.D(x_l)
        out_u = self.D(x_u)
        out_f = self.D(self.G(len(ids_u)).detach())
        sup = F.cross_entropy(out_l, y)
        lz_u, lz_f = log_sum_exp(out_u), log_sum_exp(out_f)
        unsup = 0.5 * (-lz_u.mean() + F.softplus(lz_u).mean() + F.softplus(lz_f).mean())
        loss = sup + unsup
        self.Doptim.zero_grad()
        loss.backward()
        self.Doptim.step()
        return sup.item()

    def trainG(self, ids_u):
        mom_gen, _ = self.D(self.G(len(ids_u)), feature=True)
        mom_real, _ = self.D(self.make_input(ids_u), feature=True)
        loss = (mom_gen.mean(0) - mom_real.mean(0)).abs().mean()
        self.Goptim.zero_grad()
        self.Doptim.zero_grad()
        loss.backward()
        if self.g_grad_probe is None:
            self.g_grad_probe = self.G.net[0].weight.grad.abs().sum().item()
        self.Goptim.step()
        return loss.item()


model = GraphSGAN()
emb0 = model.embedding_layer.weight.detach().clone()
g0 = model.G.net[0].weight.detach().clone()
d0 = model.D.head.weight.detach().clone()


def accuracy():
    with torch.no_grad():
        pred = model.D(model.make_input(labelled)).argmax(1)
    return (pred == classes[labelled]).float().mean().item()


acc0 = accuracy()
for step in range(150):
    ids_u = unlabelled[torch.randperm(len(unlabelled))[:16]]
    model.trainD(labelled, classes[labelled], ids_u)
    model.trainG(unlabelled[torch.randperm(len(unlabelled))[:16]])

assert model.g_grad_probe > 0
assert not torch.equal(model.G.net[0].weight, g0)
assert not torch.equal(model.D.head.weight, d0)
assert torch.equal(model.embedding_layer.weight, emb0)  # fixed by design
assert model.embedding_layer.weight.grad is None
acc1 = accuracy()
assert acc1 > acc0 and acc1 > 0.9
print("D and G trained, pre-trained embeddings untouched; labelled acc %.2f -> %.2f" % (acc0, acc1))
