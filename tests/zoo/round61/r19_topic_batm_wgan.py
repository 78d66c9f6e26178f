"""
expect: none
dynamic: dismiss
source: https://github.com/zll17/Neural_Topic_Models/blob/634ce57167e432bb58628145ae35fb46f2b317a3/models/BATM.py

BATM (bidirectional adversarial topic model) in Neural_Topic_Models trains three
networks WGAN-style: a generator maps a Dirichlet topic vector to a word distribution,
an encoder maps a real bag-of-words to topics, and a critic scores (topics, words)
pairs. Its loop has several things an autograd checker might flag: the real
bag-of-words is normalized in place with `/=`, the critic loss is built on
`.detach()`-ed encoder and generator outputs, after the critic step every critic
parameter is clipped in place through `param.data.clamp_`, the blocks use
LeakyReLU(inplace=True) after BatchNorm, and the generator and encoder losses are then
computed through the critic that was just updated. All of it is correct: the input
edit happens before any op saves the tensor, the detaches are the standard
stop-gradient that keeps the critic step from training the generator/encoder, the
clipping is the WGAN Lipschitz constraint applied after the step, and the generator
and encoder losses do a fresh forward through the critic, so no saved tensor is
stale. The asserts check that the critic backward leaves generator and encoder grads
empty, that all critic weights stay inside the clip box, and that all three networks
change during training without any error.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

VOCAB, N_TOPIC, HID = 50, 4, 32
CLIP, N_CRITIC = 0.05, 2


def block(i, o):
    return [nn.Linear(i, o, bias=False), nn.BatchNorm1d(o), nn.LeakyReLU(0.1, inplace=True)]


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.g = nn.Sequential(*block(N_TOPIC, HID), nn.Linear(HID, VOCAB), nn.Softmax(dim=1))

    def forward(self, theta):
        return torch.cat([theta, self.g(theta)], dim=1)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.e = nn.Sequential(*block(VOCAB, HID), nn.Linear(HID, N_TOPIC), nn.Softmax(dim=1))

    def forward(self, bow):
        return torch.cat([self.e(bow), bow], dim=1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = nn.Sequential(*block(N_TOPIC + VOCAB, HID), nn.Linear(HID, 1))

    def forward(self, doc):
        return self.d(doc)


def corpus(n_docs=64):
    topics = np.random.dirichlet(np.ones(VOCAB) * 0.1, size=N_TOPIC)
    mix = np.random.dirichlet(np.ones(N_TOPIC) * 0.3, size=n_docs)
    counts = np.stack([np.random.multinomial(60, m @ topics) for m in mix]).astype(np.float32)
    return torch.from_numpy(counts)


def snapshot(m):
    return [p.detach().clone() for p in m.parameters()]


def moved(m, snap):
    return any(not torch.equal(p.detach(), s) for p, s in zip(m.parameters(), snap))


def main():
    gen, enc, critic = Generator(), Encoder(), Critic()
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_e = torch.optim.Adam(enc.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.999))
    g0, e0, d0 = snapshot(gen), snapshot(enc), snapshot(critic)
    docs = corpus()

    for it in range(12):
        bows_real = docs[torch.randperm(docs.size(0))[:16]].clone()
        bows_real /= torch.sum(bows_real, dim=1, keepdim=True)

        opt_d.zero_grad()
        opt_g.zero_grad()
        opt_e.zero_grad()
        theta_fake = torch.from_numpy(
            np.random.dirichlet(np.ones(N_TOPIC) / N_TOPIC, size=16)).float()
        loss_d = -torch.mean(critic(enc(bows_real).detach())) + \
            torch.mean(critic(gen(theta_fake).detach()))
        loss_d.backward()
        assert all(p.grad is None for p in gen.parameters())
        assert all(p.grad is None for p in enc.parameters())
        opt_d.step()
        for param in critic.parameters():
            param.data.clamp_(-CLIP, CLIP)

        if it % N_CRITIC == 0:
            opt_g.zero_grad()
            loss_g = -torch.mean(critic(gen(theta_fake)))
            loss_g.backward()
            opt_g.step()

            opt_e.zero_grad()
            loss_e = torch.mean(critic(enc(bows_real)))
            loss_e.backward()
            opt_e.step()

    assert all(p.detach().abs().max() <= CLIP + 1e-7 for p in critic.parameters())
    assert moved(gen, g0) and moved(enc, e0) and moved(critic, d0)
    print("BATM loop: critic clipped, generator/encoder/critic all updated")


if __name__ == "__main__":
    main()
