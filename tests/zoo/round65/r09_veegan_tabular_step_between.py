"""
expect: GL005 107, GL005 110
dynamic: confirm
source: https://github.com/sdv-dev/SDGym/issues/46

Tabular deep learning: VEEGAN synthesizer for mixed continuous/categorical tables (as
benchmarked in SDGym). One forward pass builds the discriminator, generator and
reconstructor losses, and the fit loop then does `loss_d.backward(retain_graph=True)`,
`optimizerD.step()`, and only afterwards `loss_g.backward(retain_graph=True)`. The
generator loss goes through the discriminator's output on the fake rows, and that graph
saved the discriminator weights (the "output 0 of TBackward" in the report) which
`optimizerD.step()` has just updated in place, so the generator backward raises
"modified by an inplace operation" on the first batch. The asserts catch that error and
show that a variant taking all three gradients from the same forward before any step
trains: every network gets gradients, the reconstruction term falls and the generated
category frequencies move toward the table's.

(Scoring note, added when the round joined the zoo: `optimizerG.step()` at line 110 sits between
`loss_g`'s and `loss_r`'s backwards through the same forward as well; with the discriminator step
moved after `loss_g.backward()`, the reconstructor's backward still fails there. It is a second
mistake of the same kind, found by gradlint and verified under torch.)
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.functional import mse_loss
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

# (width, activation) blocks of the transformed table: two continuous, one 3-way category
OUTPUT_INFO = [(1, "tanh"), (1, "tanh"), (3, "softmax")]


class Generator(nn.Module):
    def __init__(self, embedding_dim, gen_dims, data_dim):
        super().__init__()
        layers, dim = [], embedding_dim
        for item in gen_dims:
            layers += [nn.Linear(dim, item), nn.BatchNorm1d(item), nn.ReLU()]
            dim = item
        layers.append(nn.Linear(dim, data_dim))
        self.seq = nn.Sequential(*layers)

    def forward(self, noise, output_info):
        data = self.seq(noise)
        out, st = [], 0
        for width, act in output_info:
            block = data[:, st:st + width]
            out.append(torch.tanh(block) if act == "tanh" else F.softmax(block, dim=1))
            st += width
        return torch.cat(out, dim=1)


def mlp(in_dim, dims, out_dim):
    layers, dim = [], in_dim
    for item in dims:
        layers += [nn.Linear(dim, item), nn.LeakyReLU(0.2)]
        dim = item
    layers.append(nn.Linear(dim, out_dim))
    return nn.Sequential(*layers)


class VEEGANSynthesizer:
    def __init__(self, embedding_dim=8, gen_dim=(32,), dis_dim=(32,), rec_dim=(32,),
                 l2scale=1e-6, batch_size=50, epochs=3):
        self.embedding_dim, self.gen_dim, self.dis_dim, self.rec_dim = embedding_dim, gen_dim, dis_dim, rec_dim
        self.l2scale, self.batch_size, self.epochs = l2scale, batch_size, epochs

    def _setup(self, train_data):
        dataset = TensorDataset(torch.from_numpy(train_data.astype("float32")))
        self.loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True, drop_last=True)
        data_dim = train_data.shape[1]
        self.generator = Generator(self.embedding_dim, self.gen_dim, data_dim)
        self.discriminator = mlp(self.embedding_dim + data_dim, self.dis_dim, 1)
        self.reconstructor = mlp(data_dim, self.rec_dim, self.embedding_dim)
        params = dict(lr=1e-3, betas=(0.5, 0.9), weight_decay=self.l2scale)
        self.optimizerG = Adam(self.generator.parameters(), **params)
        self.optimizerD = Adam(self.discriminator.parameters(), **params)
        self.optimizerR = Adam(self.reconstructor.parameters(), **params)

    def _losses(self, real):
        mean = torch.zeros(self.batch_size, self.embedding_dim)
        realz = self.reconstructor(real)
        y_real = self.discriminator(torch.cat([real, realz], dim=1))
        fakez = torch.normal(mean=mean, std=mean + 1)
        fake = self.generator(fakez, OUTPUT_INFO)
        fakezrec = self.reconstructor(fake)
        y_fake = self.discriminator(torch.cat([fake, fakez], dim=1))
        loss_d = (-(torch.log(torch.sigmoid(y_real) + 1e-4).mean())
                  - (torch.log(1. - torch.sigmoid(y_fake) + 1e-4).mean()))
        rec = mse_loss(fakezrec, fakez, reduction="mean")
        numerator = -y_fake.mean() + rec
        return loss_d, numerator / self.embedding_dim, numerator / self.embedding_dim, rec

    def fit(self, train_data):
        self._setup(train_data)
        for _ in range(self.epochs):
            for data in self.loader:
                loss_d, loss_g, loss_r, _ = self._losses(data[0])
                self.optimizerD.zero_grad()
                loss_d.backward(retain_graph=True)
                self.optimizerD.step()
                self.optimizerG.zero_grad()
                loss_g.backward(retain_graph=True)
                self.optimizerG.step()
                self.optimizerR.zero_grad()
                loss_r.backward()
                self.optimizerR.step()

    def fit_joint(self, train_data):
        """All gradients from the same forward first, then the three steps."""
        self._setup(train_data)
        recs = []
        for _ in range(self.epochs):
            for data in self.loader:
                loss_d, loss_g, loss_r, rec = self._losses(data[0])
                nets = [(loss_d, self.discriminator), (loss_g, self.generator), (loss_r, self.reconstructor)]
                grads = [torch.autograd.grad(loss, list(net.parameters()), retain_graph=True)
                         for loss, net in nets]
                for (_, net), gs in zip(nets, grads):
                    for p, g in zip(net.parameters(), gs):
                        p.grad = g
                self.optimizerD.step()
                self.optimizerG.step()
                self.optimizerR.step()
                recs.append(rec.item())
        return recs


def make_table(n=500):
    cont = np.tanh(np.random.randn(n, 2) * 0.5)
    cat = np.random.choice(3, size=n, p=[0.7, 0.2, 0.1])
    return np.concatenate([cont, np.eye(3)[cat]], axis=1)


table = make_table()

synth = VEEGANSynthesizer()
err = None
try:
    synth.fit(table)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

TARGET = torch.tensor([0.7, 0.2, 0.1])


def category_gap(generator):
    generator.eval()
    with torch.no_grad():
        probs = generator(torch.randn(1000, 8), OUTPUT_INFO)[:, 2:].mean(0)
    generator.train()
    return (probs - TARGET).abs().sum().item()


fixed = VEEGANSynthesizer(epochs=8)
torch.manual_seed(0)
fixed._setup(table)
gap0 = category_gap(fixed.generator)
torch.manual_seed(0)
recs = fixed.fit_joint(table)
for net in (fixed.generator, fixed.discriminator, fixed.reconstructor):
    assert all(p.grad is not None for p in net.parameters())
gap1 = category_gap(fixed.generator)
first, last = np.mean(recs[:10]), np.mean(recs[-10:])
assert last < first, (first, last)
assert gap1 < 0.5 * gap0, (gap0, gap1)
print("buggy: %s..." % err[:60])
print("fixed: category-marginal gap %.3f -> %.3f, reconstruction %.3f -> %.3f" % (gap0, gap1, first, last))
