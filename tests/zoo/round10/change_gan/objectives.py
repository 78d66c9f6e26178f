"""Loss terms for a bi-temporal change-detection GAN (generator + patch critic)."""
import torch
import torch.nn.functional as F


class ChangeDetectionObjective:
    """Bundles the generator and critic objectives used by the training loop."""

    def __init__(self, recon_weight=10.0, adv_weight=1.0):
        self.recon_weight = recon_weight
        self.adv_weight = adv_weight

    def generator_terms(self, critic, change_map, reference):
        recon = F.l1_loss(change_map, reference)
        critic_score = critic(change_map).detach()
        adv = F.binary_cross_entropy_with_logits(critic_score, torch.ones_like(critic_score))
        total = self.recon_weight * recon + self.adv_weight * adv
        return total, recon, adv

    def critic_terms(self, critic, change_map, reference):
        real = critic(reference)
        fake = critic(change_map.detach())
        real_loss = F.binary_cross_entropy_with_logits(real, torch.ones_like(real))
        fake_loss = F.binary_cross_entropy_with_logits(fake, torch.zeros_like(fake))
        return 0.5 * (real_loss + fake_loss)
