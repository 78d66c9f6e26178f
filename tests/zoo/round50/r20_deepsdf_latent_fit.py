"""
expect: none
dynamic: dismiss
source: https://github.com/ivanpuhachov/mydeepsdf/blob/HEAD/family_training.py

A DeepSDF auto-decoder for a family of shapes (spheres of different centres and radii): a
weight-normalised MLP with dropout, in-place LeakyReLU/ReLU activations and a skip connection
maps (latent code, xyz) to a clamped signed distance, and each training shape owns a learned
latent row. To encode a new shape, the trained decoder is put in eval mode and a fresh latent is
fitted by hand: a random tensor gets requires_grad = True, each step backpropagates the clamped L1
loss into it, and the code is moved with lat.data = lat.data - lr * lat.grad.data followed by
lat.grad.data.zero_(). Nothing here is cut by mistake: the latent is a genuine leaf created from
data, the .data writes happen after backward on a graph that is rebuilt every step, and the
in-place activations act on Linear outputs that no backward formula keeps. The asserts check that
the latent's gradient matches one computed with out-of-place activations, that the fitted latent
lowers the SDF error on the new shape, and that the decoder weights do not change.
"""
import copy

import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(0)
torch.set_num_threads(1)

LATENT, HIDDEN, FAMILY, DELTA = 4, 64, 8, 1.0


def block(i, o, act):
    return nn.Sequential(nn.Dropout(0.1), weight_norm(nn.Linear(i, o)), act)


class FamilyDecoder(nn.Module):
    def __init__(self, inplace=True):
        super().__init__()
        self.latent_vector = nn.Parameter(torch.randn(FAMILY, LATENT) * 0.3)
        d_in = LATENT + 3
        self.first = nn.Sequential(block(d_in, HIDDEN, nn.LeakyReLU(0.05, inplace=inplace)),
                                   block(HIDDEN, HIDDEN - d_in, nn.ReLU(inplace=inplace)))
        self.second = nn.Sequential(block(HIDDEN, HIDDEN, nn.LeakyReLU(0.05, inplace=inplace)),
                                    nn.Linear(HIDDEN, 1), nn.Tanh())

    def forward_customlatent(self, xyz, latent):
        inputs = torch.cat([latent.repeat(xyz.size(0), 1), xyz], dim=1)
        h = self.first(inputs)
        return self.second(torch.cat([inputs, h], dim=1))

    def forward(self, xyz, family_id):
        return self.forward_customlatent(xyz, self.latent_vector[family_id])


def deepsdf_loss(pred, target):
    return (pred.clamp(-DELTA, DELTA) - target.clamp(-DELTA, DELTA)).abs().mean()


def sphere_samples(center, radius, n=512):
    xyz = (torch.rand(n, 3) * 2 - 1) * 1.2
    sdf = (xyz - center).norm(dim=1, keepdim=True) - radius
    return xyz, sdf


shapes = [(torch.rand(3) * 0.6 - 0.3, torch.rand(()) * 0.4 + 0.3) for _ in range(FAMILY)]
model = FamilyDecoder()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(600):
    fid = step % FAMILY
    xyz, sdf = sphere_samples(*shapes[fid], n=256)
    loss = deepsdf_loss(model(xyz, fid), sdf) + 1e-4 * model.latent_vector[fid].pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()


def fit_latent(model, batches, n_epochs=15, learning_rate=3e-3):
    model.eval()
    lat = torch.randn(LATENT) * 0.3
    lat.requires_grad = True
    history = []
    for _ in range(n_epochs):
        running = 0.0
        for xyz, sdf in batches:
            model.zero_grad()
            c_loss = deepsdf_loss(model.forward_customlatent(xyz, lat), sdf)
            running += c_loss.item()
            c_loss.backward()
            normalized_lr = learning_rate / lat.grad.data.abs().mean()
            lat.data = lat.data - normalized_lr * lat.grad.data
            lat.grad.data.zero_()
        history.append(running / len(batches))
    return lat, history


# the in-place activations do not change the latent gradient
probe_xyz, probe_sdf = sphere_samples(torch.zeros(3), torch.tensor(0.45), n=128)
model.eval()
reference = copy.deepcopy(model)
for mod in reference.modules():
    if isinstance(mod, (nn.ReLU, nn.LeakyReLU)):
        mod.inplace = False
z = (torch.randn(LATENT) * 0.1).requires_grad_()
g_inplace = torch.autograd.grad(deepsdf_loss(model.forward_customlatent(probe_xyz, z), probe_sdf), z)[0]
g_ref = torch.autograd.grad(deepsdf_loss(reference.forward_customlatent(probe_xyz, z), probe_sdf), z)[0]
assert torch.allclose(g_inplace, g_ref)

decoder_before = {k: v.clone() for k, v in model.state_dict().items()}
new_shape = (torch.tensor([0.1, -0.1, 0.05]), torch.tensor(0.5))
batches = [sphere_samples(*new_shape, n=256) for _ in range(4)]
lat, history = fit_latent(model, batches)

assert lat.is_leaf and lat.grad is not None and lat.grad.abs().sum() == 0
assert history[-1] < 0.7 * history[0]
assert all(torch.equal(decoder_before[k], v) for k, v in model.state_dict().items())
with torch.no_grad():
    test_xyz, test_sdf = sphere_samples(*new_shape, n=1024)
    err_fit = deepsdf_loss(model.forward_customlatent(test_xyz, lat), test_sdf).item()
    err_rand = deepsdf_loss(model.forward_customlatent(test_xyz, torch.randn(LATENT)), test_sdf).item()
assert err_fit < err_rand
print(f"latent fit loss {history[0]:.4f} -> {history[-1]:.4f}; test error fitted {err_fit:.4f} vs random {err_rand:.4f}")
