"""
expect: GL003 main.py:54
dynamic: confirm
source: https://github.com/torchmd/torchmd-net/issues/211

TorchMD-Net models predict an energy and obtain forces as the negative gradient
of that energy with respect to the atom positions: forward() sets
pos.requires_grad_(True) and calls torch.autograd.grad inside the model. A user
hit "element 0 of tensors does not require grad and does not have a grad_fn";
the maintainer pointed to the Trainer's inference_mode setting: Lightning runs
validation/test under inference mode, which these models cannot take because
they run a backward pass inside forward. The program trains a small neural pair
potential on a toy Lennard-Jones data set and validates it the usual way, inside
`with torch.inference_mode():`. The force computation inside the model then
fails with that exact error (caught and asserted); the fixed validation keeps
autograd enabled (no inference mode, parameter gradients are simply discarded)
and reports a force error that shrinks with training.
"""
import torch

from potential import PairPotential, reference_energy_forces

torch.manual_seed(0)
torch.set_num_threads(1)


def make_configs(n):
    configs = []
    for _ in range(n):
        pos = torch.randn(5, 3) * 0.6 + torch.arange(5).float().unsqueeze(1) * 1.2
        energy, forces = reference_energy_forces(pos)
        configs.append((pos, energy, forces))
    return configs


train_set, val_set = make_configs(24), make_configs(6)
model = PairPotential()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)


def train_epoch():
    for pos, e_ref, f_ref in train_set:
        e_pred, f_pred = model(pos.clone())
        loss = (e_pred - e_ref) ** 2 + ((f_pred - f_ref) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def validate_in_inference_mode():
    errors = []
    with torch.inference_mode():
        for pos, _, f_ref in val_set:
            _, f_pred = model(pos.clone())
            errors.append((f_pred - f_ref).abs().mean())
    return torch.stack(errors).mean().item()


def validate_with_autograd():
    errors = []
    for pos, _, f_ref in val_set:
        _, f_pred = model(pos.clone())
        errors.append((f_pred.detach() - f_ref).abs().mean())
    model.zero_grad(set_to_none=True)
    return torch.stack(errors).mean().item()


start = validate_with_autograd()
for epoch in range(30):
    train_epoch()

try:
    validate_in_inference_mode()
    raise AssertionError("force computation should fail under inference_mode")
except RuntimeError as err:
    assert "does not require grad" in str(err)
    print("validation under inference_mode: expected RuntimeError caught")

end = validate_with_autograd()
assert end < 0.7 * start, (start, end)
print(f"validation force MAE with autograd on: {start:.4f} -> {end:.4f}")
