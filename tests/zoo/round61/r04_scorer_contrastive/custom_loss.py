import torch
import torch.nn.functional as F


def calc_contrastive_loss(embeddings, labels, margin):
    # same-label pairs are pulled together, different-label pairs pushed apart
    distance = F.pairwise_distance(embeddings.unsqueeze(1), embeddings.unsqueeze(0))
    target = torch.eq(labels.unsqueeze(1), labels.unsqueeze(0)).float()
    return torch.mean(target * distance.pow(2)
                      + (1 - target) * torch.clamp(margin - distance, min=0.0).pow(2))


def region_contrastive_loss(outputs, labels, num_labels, margin, alpha, use_ce):
    """Labels k and k + num_labels//2 share an ability region: contrast them inside it."""
    ce_loss = outputs["loss"]
    embeddings = outputs["cls"]
    right_labels = list(range(num_labels // 2))
    c_losses = []
    for label in right_labels:
        mask = (labels == label) | (labels == label + num_labels // 2)
        c_losses.append(calc_contrastive_loss(embeddings[mask], labels[mask], margin))
    c_loss = torch.tensor(c_losses).mean()
    if use_ce:
        total_loss = ce_loss + alpha * c_loss
    else:
        total_loss = alpha * c_loss
        total_loss.requires_grad = True
    return total_loss


def region_contrastive_loss_fixed(outputs, labels, num_labels, margin, alpha, use_ce):
    ce_loss = outputs["loss"]
    embeddings = outputs["cls"]
    c_losses = []
    for label in range(num_labels // 2):
        mask = (labels == label) | (labels == label + num_labels // 2)
        c_losses.append(calc_contrastive_loss(embeddings[mask], labels[mask], margin))
    c_loss = torch.stack(c_losses).mean()
    return ce_loss + alpha * c_loss if use_ce else alpha * c_loss
