"""expect: GL005 55
dynamic: confirm
source: https://github.com/aupendu/zero-restore/issues/7

Zero-shot underwater restoration network with a selective-kernel block
(SKConv). Each branch output is turned into a stacking slot with the in-place
unsqueeze_(dim=1). For the first branch that output is the result of the
ReLU at the end of InConv.convf (a different module), which ReLU saved for
its backward, so the in-place metadata edit bumps its version and backward()
fails with "modified by an inplace operation". The maintainer's fix is to add
.clone() (or use the out-of-place unsqueeze).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InConv(nn.Module):
    def __init__(self, feats=8):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, feats, 3, stride=2, padding=1, bias=False),
            nn.GroupNorm(num_channels=feats, num_groups=2),
            nn.ReLU(inplace=True),
        )
        self.convf = nn.Sequential(
            nn.Conv2d(feats, feats, 3, padding=1, bias=False),
            nn.GroupNorm(num_channels=feats, num_groups=2),
            nn.ReLU(inplace=False),
        )

    def forward(self, x):
        per_channel = [torch.unsqueeze(self.conv(x[:, c:c + 1]), 1) for c in range(x.shape[1])]
        darkest, _ = torch.min(torch.cat(per_channel, 1), dim=1)
        return self.convf(darkest)


class SKConv(nn.Module):
    def __init__(self, feats=8, branches=2, squeeze=4):
        super().__init__()
        shared = InConv(feats)
        self.convs = nn.ModuleList([shared])
        for i in range(1, branches):
            self.convs.append(nn.Sequential(
                nn.Upsample(scale_factor=1 / (2 ** i), mode="bilinear", align_corners=True),
                shared,
                nn.Upsample(scale_factor=2 ** i, mode="bilinear", align_corners=True),
            ))
        self.fc = nn.Linear(feats, squeeze)
        self.fcs = nn.ModuleList([nn.Linear(squeeze, feats) for _ in range(branches)])

    def forward(self, x):
        feas = None
        for conv in self.convs:
            fea = conv(x).unsqueeze_(dim=1)
            feas = fea if feas is None else torch.cat([feas, fea], dim=1)
        fea_u = feas.sum(dim=1)
        fea_z = self.fc(fea_u.mean(-1).mean(-1))
        attn = torch.stack([fc(fea_z) for fc in self.fcs], dim=1).softmax(dim=1)
        return (feas * attn[..., None, None]).sum(dim=1)


class TransmissionNet(nn.Module):
    def __init__(self, feats=8):
        super().__init__()
        self.sk = SKConv(feats)
        self.out = nn.Conv2d(feats, 1, 1)

    def forward(self, img):
        t = torch.sigmoid(self.out(self.sk(img)))
        return F.interpolate(t, size=img.shape[-2:], mode="bilinear", align_corners=True)


def zero_shot_step(net, optimizer, hazy):
    optimizer.zero_grad()
    trans = net(hazy)
    airlight = hazy.flatten(2).max(dim=2).values[..., None, None]
    restored = (hazy - airlight) / trans.clamp(min=0.1) + airlight
    loss = F.mse_loss(restored * trans + airlight * (1 - trans), hazy) + 0.01 * trans.mean()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = TransmissionNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    hazy = torch.rand(1, 3, 16, 16)
    try:
        zero_shot_step(net, optimizer, hazy)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("OK: unsqueeze_ on ReLU's saved output broke backward")
    else:
        raise AssertionError("expected an in-place modification error")
