"""
expect: none
dynamic: dismiss
source: https://github.com/Zeleni9/pytorch-wgan/issues/20

The issue quotes a WGAN-GP train.py that calls loss_critic.backward(retain_graph=True),
then opt_critic.step(), and afterwards trains the generator on a NEW critic forward
pass over the same `fake` batch. It looks like a retain-graph-in-a-loop or a
step-between-backwards bug, but it is fine: the retained part is only the generator's
graph for this batch (its weights are not stepped before the generator backward),
the critic is re-run after its step, and nothing is carried to the next iteration.
The asserts check the generator gradient equals a freshly rebuilt reference and that
the graph reached by the generator loss does not grow across iterations.
"""
import copy

import torch

from nets import Critic, Generator, gradient_penalty, graph_size

torch.manual_seed(0)
torch.set_num_threads(1)
LAMBDA_GP = 10.0

gen, critic = Generator(), Critic()
opt_gen = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_critic = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
real_data = torch.randn(256, 6) * 0.5 + 2.0


def train_step(real, noise):
    fake = gen(noise)
    critic_real = critic(real).reshape(-1)
    critic_fake = critic(fake).reshape(-1)
    gp = gradient_penalty(critic, real, fake)
    loss_critic = -(critic_real.mean() - critic_fake.mean()) + LAMBDA_GP * gp
    critic.zero_grad()
    loss_critic.backward(retain_graph=True)
    opt_critic.step()

    gen_fake = critic(fake).reshape(-1)
    loss_gen = -gen_fake.mean()
    gen.zero_grad()
    loss_gen.backward()
    grads = [p.grad.clone() for p in gen.parameters()]
    opt_gen.step()
    return loss_gen, grads


sizes = []
for it in range(6):
    real = real_data[torch.randint(0, 256, (32,))]
    noise = torch.randn(32, 4)
    gen_before = copy.deepcopy(gen)
    loss_gen, grads = train_step(real, noise)
    sizes.append(graph_size(loss_gen))

    # reference: same generator weights, critic as it is after its step
    ref_gen = gen_before
    ref_loss = -critic(ref_gen(noise)).mean()
    ref_grads = torch.autograd.grad(ref_loss, list(ref_gen.parameters()))
    for g, r in zip(grads, ref_grads):
        assert torch.allclose(g, r, atol=1e-6)

assert len(set(sizes)) == 1, sizes
print("ok: generator grads match fresh reference; graph size constant", sizes[0])
