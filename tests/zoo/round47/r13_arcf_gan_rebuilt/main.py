"""
expect: GL002 gan_trainer.py:19
dynamic: confirm
source: https://github.com/neerajsharma9195/adversarial-recommendation-systems/blob/08df26c42d3a29ff1f7fc6f46c9fb9f00a4ab6d6/src/models/arcf.py

An adversarial collaborative-filtering model (a rating generator and a missing-entry generator, each with its own
discriminator, conditioned on a user embedding) trains its generators from log(1 - D(G(z))). The trainer gathers
each batch's discriminator scores as NumPy numbers through .detach().numpy(), sums them, and wraps the sum in a
fresh tensor with requires_grad=True so that backward() no longer complains. That tensor is a leaf with no
history: backward stops at it, both generators keep .grad None and Adam leaves them untouched. The asserts check
exactly that, and that the same loss written with torch ops gives the generators gradients and moves them.
"""
import torch

from gan_trainer import generator_step
from models import Discriminator, Generator, UserEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_USERS, NUM_ITEMS, COND, NOISE = 50, 30, 8, 6

user_encoder = UserEncoder(NUM_USERS, COND)
rating_g, missing_g = Generator(NOISE, COND, NUM_ITEMS), Generator(NOISE, COND, NUM_ITEMS)
rating_d, missing_d = Discriminator(NUM_ITEMS, COND), Discriminator(NUM_ITEMS, COND)
rating_g_opt = torch.optim.Adam(rating_g.parameters(), lr=1e-3)
missing_g_opt = torch.optim.Adam(missing_g.parameters(), lr=1e-3)

batches = [(torch.randint(0, NUM_USERS, (16,)), (torch.rand(16, NUM_ITEMS) < 0.3).float()) for _ in range(4)]

before = [p.detach().clone() for p in list(rating_g.parameters()) + list(missing_g.parameters())]
loss = generator_step(rating_g, missing_g, rating_d, missing_d, rating_g_opt, missing_g_opt,
                      user_encoder, batches, NOISE)
assert all(p.grad is None for p in rating_g.parameters())
assert all(p.grad is None for p in missing_g.parameters())
after = list(rating_g.parameters()) + list(missing_g.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, after))
print(f"generator loss {loss:.4f} reported, generators unchanged")

# the same objective kept as a tensor expression
rating_g_opt.zero_grad()
missing_g_opt.zero_grad()
total = 0.0
for user_ids, missing_mask in batches:
    cond = user_encoder(user_ids).detach()
    noise = torch.randn(user_ids.shape[0], NOISE)
    r_out = rating_d(rating_g(noise, cond) * missing_mask, cond)
    m_out = missing_d(missing_g(noise, cond), cond)
    total = total + torch.log(1.0 - r_out).mean() + torch.log(1.0 - m_out).mean()
(total / len(batches)).backward()
rating_g_opt.step()
missing_g_opt.step()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in rating_g.parameters())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in missing_g.parameters())
assert any(not torch.equal(a, b) for a, b in zip(before, list(rating_g.parameters()) + list(missing_g.parameters())))
print("tensor-valued generator loss reaches both generators")
