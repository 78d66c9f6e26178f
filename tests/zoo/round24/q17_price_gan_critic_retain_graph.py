"""
expect: none
dynamic: dismiss
source: https://github.com/libertininick/neuralopt/blob/00371aa84da3237a1f4c5874cb4faa4c2bca563f/training_utils.py

neuralopt trains a conditional WGAN-GP on price paths (low/close/high per step). Its critic
loop calls critic_loss.backward(retain_graph=True) on every one of the critic_repeats
iterations and steps the critic in between, which looks like a graph being kept alive across
iterations. It is not: the context comes from the featurizer under no_grad, each fake batch is
generated under no_grad, and every iteration builds a fresh critic graph, so nothing links one
iteration to the next and each retained graph is dropped when its variables are rebound. The
asserts show the critic graph has the same size at every repeat, that no node is shared
between consecutive iterations, and that critic and generator both train.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

T, F_IN, CTX = 16, 4, 8


class Featurizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(F_IN, CTX, batch_first=True)

    def encode_future_path(self, hist):
        return self.gru(hist)[0][:, -1]


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CTX + 8, 64), nn.ReLU(), nn.Linear(64, T * 3))

    def gen_noise(self, n):
        return torch.randn(n, 8)

    def forward(self, context, noise):
        return self.net(torch.cat([context, noise], 1)).view(-1, T, 3)


class PriceSeriesCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CTX + T * 3, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, context, lch):
        return self.net(torch.cat([context, lch.flatten(1)], 1))


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        n = stack.pop()
        if n is not None and n not in seen:
            seen.add(n)
            stack.extend(m for m, _ in n.next_functions)
    return seen


def critic_loss_fn(critic, context, real, fake, penalty_wt=1.0):
    score_real, score_fake = critic(context, real).mean(), critic(context, fake).mean()
    eps = torch.rand(real.size(0), 1, 1)
    mixed = (real * eps + fake * (1 - eps)).requires_grad_(True)
    grads = torch.autograd.grad(critic(context, mixed).sum(), mixed, create_graph=True, retain_graph=True)[0]
    penalty = ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
    return -(score_real - score_fake) + penalty_wt * penalty


def train_gc_wass_batch(models, optimizers, batch, critic_repeats=5):
    featurizer, generator, critic = models
    gen_opt, critic_opt = optimizers
    hist, real = batch
    with torch.no_grad():
        context = featurizer.encode_future_path(hist)
    sizes, node_sets = [], []
    for _ in range(critic_repeats):
        noise = generator.gen_noise(real.size(0))
        with torch.no_grad():
            fake = generator(context, noise)
        critic_loss = critic_loss_fn(critic, context, real, fake)
        critic_loss.backward(retain_graph=True)
        critic_opt.step()
        critic_opt.zero_grad()
        nodes = graph_nodes(critic_loss)
        sizes.append(len(nodes))
        node_sets.append({n for n in nodes if type(n).__name__ != "AccumulateGrad"})
    gen_loss = -critic(context, generator(context, generator.gen_noise(real.size(0)))).mean()
    gen_loss.backward()
    gen_opt.step()
    gen_opt.zero_grad()
    return sizes, node_sets


featurizer = Featurizer().requires_grad_(False)
generator, critic = Generator(), PriceSeriesCritic()
gen_opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
g0, c0 = generator.net[0].weight.detach().clone(), critic.net[0].weight.detach().clone()

all_sizes = []
for _ in range(3):
    batch = (torch.randn(16, 20, F_IN), torch.randn(16, T, 3).cumsum(1))
    sizes, node_sets = train_gc_wass_batch((featurizer, generator, critic), (gen_opt, critic_opt), batch)
    all_sizes += sizes
    for a, b in zip(node_sets, node_sets[1:]):
        assert not (a & b)  # consecutive critic iterations share no op node (only parameter leaves)
assert len(set(all_sizes)) == 1
assert not torch.equal(g0, generator.net[0].weight) and not torch.equal(c0, critic.net[0].weight)
print("q17 ok: retain_graph in the critic loop carries nothing between iterations")
