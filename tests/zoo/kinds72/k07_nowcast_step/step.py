import torch.nn.functional as F


def encode_history(encoder, frames, clip=50.0):
    return encoder(frames.clamp(max=clip) / clip)


def nowcast_step(encoder, frame_head, mask_head, optimizer, frames, target, rain_threshold=1.0):
    """Two losses through one encoder forward; gradients accumulate, then one update."""
    optimizer.zero_grad()
    feat = encode_history(encoder, frames)
    frame_loss = F.mse_loss(frame_head(feat), target / 50.0)
    frame_loss.backward(retain_graph=True)
    rain = (target > rain_threshold).float()
    mask_loss = F.binary_cross_entropy_with_logits(mask_head(feat), rain)
    mask_loss.backward()
    optimizer.step()
    return frame_loss.item(), mask_loss.item()
