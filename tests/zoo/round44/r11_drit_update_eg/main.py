"""
expect: GL005 drit_model.py:88, GL005 drit_model.py:89, GL005 drit_model.py:90
dynamic: confirm
source: https://github.com/HsinYingLee/DRIT/issues/48

A DRIT-like image-to-image translator (content encoder, attribute encoder, generator) is updated
in two stages inside update_EG(): backward_EG() runs the main generator loss with
retain_graph=True, then the three optimizers step, and then backward_G_alone() backpropagates a
second loss (adversarial loss on the random-attribute fake plus the latent-regression loss) through
the same retained forward graph. Adam's step() rewrites the encoder and generator weights in place,
and those weights were saved by the linear layers of that graph, so the second backward fails with
"modified by an inplace operation" (the error users hit after PyTorch 1.5). The program shows the
error from update_EG(), then shows that each of the three step() calls alone is enough to trigger
it, and finally that running both backward passes before any step trains all three networks.
"""
import torch

from drit_model import DRITModel

torch.manual_seed(0)
torch.set_num_threads(1)

DIM = 12
real_a = torch.randn(8, DIM).tanh()
real_b = torch.randn(8, DIM).tanh()


def fresh_model():
    torch.manual_seed(1)
    m = DRITModel(dim=DIM)
    m.set_input(real_a, real_b)
    m.forward()
    return m


def raises_inplace(fn):
    try:
        fn()
    except RuntimeError as err:
        assert "inplace operation" in str(err), err
        return True
    return False


# 1) the original two-stage update fails inside backward_G_alone()
model = fresh_model()
assert raises_inplace(model.update_EG)

# 2) every one of the three steps between the two backward calls is enough on its own
for name in ["enc_c_opt", "enc_a_opt", "gen_opt"]:
    m = fresh_model()
    for opt in (m.enc_c_opt, m.enc_a_opt, m.gen_opt):
        opt.zero_grad()
    m.backward_EG()
    getattr(m, name).step()
    assert raises_inplace(m.backward_G_alone), name

# 3) intended order: both backward passes through the graph first, the steps afterwards
m = fresh_model()
before = {n: [p.detach().clone() for p in getattr(m, n).parameters()] for n in ("enc_c", "enc_a", "gen")}
for opt in (m.enc_c_opt, m.enc_a_opt, m.gen_opt):
    opt.zero_grad()
m.backward_EG()
m.backward_G_alone()
m.enc_c_opt.step()
m.enc_a_opt.step()
m.gen_opt.step()
for n, old in before.items():
    moved = any(not torch.equal(o, p) for o, p in zip(old, getattr(m, n).parameters()))
    assert moved, n
print("checked: step between the two backward passes breaks them; backward-then-step trains all three nets")
