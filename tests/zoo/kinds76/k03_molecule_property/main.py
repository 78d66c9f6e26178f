"""
expect: GL001 losses.py:17
dynamic: confirm
source: none, invented

Chemistry / molecule design. A fingerprint decoder is trained with PropertyGuidedLoss:
a reconstruction term towards reference fingerprints plus a term pushing the predicted
solubility of the decoded fingerprint above a target. The solubility is obtained from
the frozen critic's `predict` method (critic.py), which is decorated
`@torch.no_grad()`, so the property term is a constant with no graph: it is added to
the loss but contributes no gradient, and the decoder is only ever trained to
reconstruct. The asserts show the property term has no grad_fn, that the gradient of
the full loss equals the gradient of the reconstruction term alone, and that a fixed
loss that scores through the critic's recorded forward (critic frozen with
requires_grad_(False)) lowers the property penalty much more.
"""
import torch
import torch.nn.functional as F

from critic import SolubilityCritic
from decoder import FingerprintDecoder
from losses import PropertyGuidedLoss


class RecordedPropertyLoss(PropertyGuidedLoss):
    def property_term(self, fingerprint):
        predicted = self.critic(fingerprint)
        return F.relu(self.target_logs - predicted).pow(2).mean()


def train(decoder, loss_fn, z, ref, steps=150):
    opt = torch.optim.Adam(decoder.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(decoder(z), ref)
        loss.backward()
        opt.step()
    return loss_fn.last_terms


def main():
    torch.manual_seed(0)
    critic = SolubilityCritic().freeze()
    z = torch.randn(64, 8)
    ref = (torch.rand(64, 32) > 0.5).float()

    torch.manual_seed(1)
    decoder = FingerprintDecoder()
    loss_fn = PropertyGuidedLoss(critic, target_logs=2.0, weight=5.0)

    # the property term is detached from the decoder
    fp = decoder(z)
    assert loss_fn.property_term(fp).grad_fn is None
    full = loss_fn(fp, ref)
    g_full = torch.autograd.grad(full, list(decoder.parameters()))
    recon_only = F.binary_cross_entropy(decoder(z).clamp(1e-6, 1 - 1e-6), ref)
    g_recon = torch.autograd.grad(recon_only, list(decoder.parameters()))
    assert loss_fn.last_terms["property"] > 0.1
    for a, b in zip(g_full, g_recon):
        assert torch.allclose(a, b)

    buggy_terms = train(decoder, loss_fn, z, ref)

    torch.manual_seed(1)
    fixed_decoder = FingerprintDecoder()
    fixed_terms = train(fixed_decoder, RecordedPropertyLoss(critic, 2.0, 5.0), z, ref)
    print("buggy", {k: round(v.item(), 3) for k, v in buggy_terms.items()})
    print("fixed", {k: round(v.item(), 3) for k, v in fixed_terms.items()})
    assert fixed_terms["property"] < 0.5 * buggy_terms["property"]
    print("OK")


if __name__ == "__main__":
    main()
