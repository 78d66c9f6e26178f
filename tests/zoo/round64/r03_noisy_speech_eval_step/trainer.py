import torch
import torch.nn as nn


def subsample2(wav):
    """Split a waveform batch into its even and odd samples."""
    return wav[..., 0::2], wav[..., 1::2]


def nb2nb_loss(g1_wav, fg1_wav, g2_wav, g1fx, g2fx, gamma=1.0):
    base = torch.mean((fg1_wav - g2_wav) ** 2)
    reg = torch.mean((fg1_wav - g2_wav - (g1fx - g2fx)) ** 2)
    return base + gamma * reg


def train_epoch(net, loader, optimizer):
    net.train()
    total = 0.0
    for noisy, g1, g2 in loader:
        net.zero_grad()
        fg1 = net(g1)
        with torch.no_grad():                       # targets of the regulariser
            g1fx, g2fx = subsample2(net(noisy))
        loss = nb2nb_loss(g1, fg1, g2, g1fx, g2fx)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def test_epoch(net, loader, optimizer, buggy=True):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for noisy, g1, g2 in loader:
            fg1 = net(g1)
            g1fx, g2fx = subsample2(net(noisy))
            loss = nb2nb_loss(g1, fg1, g2, g1fx, g2fx)
            if buggy:
                loss = loss.requires_grad_()
                loss.backward()
                optimizer.step()
            total += loss.item()
    return total / len(loader)
