import torch
import torch.nn.functional as F


def encode_contact(encoder, batch):
    taxels = batch["taxels"] / (batch["taxels"].abs().amax(dim=-1, keepdim=True) + 1e-6)
    return encoder(taxels, batch["joints"])


def grasp_train_step(encoder, quality_head, slip_head, optimizer, batch, slip_weight=0.5):
    optimizer.zero_grad()
    z = encode_contact(encoder, batch)
    quality_loss = F.binary_cross_entropy_with_logits(quality_head(z), batch["success"])
    quality_loss.backward(retain_graph=True)
    optimizer.step()
    slip_loss = slip_weight * F.binary_cross_entropy_with_logits(slip_head(z), batch["slipped"])
    slip_loss.backward()
    optimizer.step()
    return quality_loss.item(), slip_loss.item()


def grasp_train_step_joint(encoder, quality_head, slip_head, optimizer, batch, slip_weight=0.5):
    optimizer.zero_grad()
    z = encode_contact(encoder, batch)
    quality_loss = F.binary_cross_entropy_with_logits(quality_head(z), batch["success"])
    slip_loss = slip_weight * F.binary_cross_entropy_with_logits(slip_head(z), batch["slipped"])
    (quality_loss + slip_loss).backward()
    optimizer.step()
    return quality_loss.item(), slip_loss.item()
