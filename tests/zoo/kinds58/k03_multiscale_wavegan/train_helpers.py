"""Tiny training utilities for the waveform GAN experiments."""


def step_on(optimizer, loss, scaler=1.0):
    optimizer.zero_grad()
    (loss * scaler).backward()
    optimizer.step()
    return loss.item()


def feature_matching(real_feats, fake_feats):
    total = 0.0
    for r, f in zip(real_feats, fake_feats):
        total = total + (r.detach() - f).abs().mean()
    return total
