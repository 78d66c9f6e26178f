"""Losses for the property-guided fingerprint decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PropertyGuidedLoss(nn.Module):
    """Reconstruction of the reference fingerprint + push predicted solubility to a target."""

    def __init__(self, critic, target_logs=2.0, weight=1.0):
        super().__init__()
        self.critic = critic
        self.target_logs = target_logs
        self.weight = weight

    def property_term(self, fingerprint):
        predicted = self.critic.predict(fingerprint)
        return F.relu(self.target_logs - predicted).pow(2).mean()

    def forward(self, fingerprint, reference):
        recon = F.binary_cross_entropy(fingerprint.clamp(1e-6, 1 - 1e-6), reference)
        prop = self.property_term(fingerprint)
        self.last_terms = {"recon": recon.detach(), "property": prop.detach()}
        return recon + self.weight * prop
