"""
expect: GL005 sae.py:16
dynamic: confirm
source: https://github.com/ApolloResearch/e2e_sae/pull/46

The e2e_sae PR stops normalising the SAE decoder by rewriting its .data and
notes the trouble this causes once other operations have already used the
parameter. Here the SparseAutoencoder in sae.py renormalises its dictionary
rows with an in-place .data.div_ at the end of forward, after the matmul
c @ dict_elements has saved the dictionary for backward. Because the edit goes
through .data, the version counter does not catch it, and the encoder gets a
gradient computed with the renormalised dictionary instead of the one used in
the forward pass. The asserts compare with the same step done with the norm
applied before the forward, and show the encoder gradients disagree.
"""
import copy

import torch

from sae import SparseAutoencoder, sae_loss

torch.manual_seed(0)
torch.set_num_threads(1)

model = SparseAutoencoder()
with torch.no_grad():
    model.dict_elements.mul_(3.0)  # rows far from unit norm, as after an optimizer step
ref = copy.deepcopy(model)
x = torch.randn(64, 10)

x_hat, c = model(x)
loss = sae_loss(x, x_hat, c)
loss.backward()
buggy_grad = model.encoder.weight.grad.clone()

# reference: the same forward values, but the dictionary is left untouched until backward is done
d = ref.dict_elements
c_ref = torch.relu(ref.encoder(x))
x_hat_ref = c_ref @ d
loss_ref = sae_loss(x, x_hat_ref, c_ref)
assert torch.allclose(loss_ref, loss)  # identical forward
loss_ref.backward()
true_grad = ref.encoder.weight.grad

rel = (buggy_grad - true_grad).norm() / true_grad.norm()
assert rel > 0.1, rel
print("ok: encoder gradient off by", float(rel), "relative, no error raised")
