"""Tiny HiFi-GAN: upsampling generator plus multi-period and multi-scale discriminators."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SLOPE = 0.1


class Generator(nn.Module):
    def __init__(self, n_mels=8, hidden=16, upsample=4):
        super().__init__()
        self.pre = nn.Conv1d(n_mels, hidden, 3, padding=1)
        self.up = nn.ConvTranspose1d(hidden, hidden // 2, 2 * upsample, stride=upsample, padding=upsample // 2)
        self.res = nn.Conv1d(hidden // 2, hidden // 2, 3, padding=1)
        self.post = nn.Conv1d(hidden // 2, 1, 3, padding=1)

    def forward(self, mel):
        h = F.leaky_relu(self.pre(mel), SLOPE)
        h = F.leaky_relu(self.up(h), SLOPE)
        h = h + self.res(F.leaky_relu(h, SLOPE))
        return torch.tanh(self.post(F.leaky_relu(h, SLOPE)))


class PeriodDisc(nn.Module):
    def __init__(self, period):
        super().__init__()
        self.period = period
        self.convs = nn.ModuleList([nn.Conv2d(1, 8, (5, 1), (3, 1), (2, 0)), nn.Conv2d(8, 16, (5, 1), (3, 1), (2, 0))])
        self.out = nn.Conv2d(16, 1, (3, 1), padding=(1, 0))

    def forward(self, x):
        b, c, t = x.shape
        if t % self.period:
            x = F.pad(x, (0, self.period - t % self.period), mode="reflect")
        x = x.view(b, c, -1, self.period)
        feats = []
        for conv in self.convs:
            x = F.leaky_relu(conv(x), SLOPE)
            feats.append(x)
        return self.out(x).flatten(1), feats


class ScaleDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv1d(1, 8, 15, padding=7), nn.Conv1d(8, 16, 11, stride=4, padding=5)])
        self.out = nn.Conv1d(16, 1, 3, padding=1)

    def forward(self, x):
        feats = []
        for conv in self.convs:
            x = F.leaky_relu(conv(x), SLOPE)
            feats.append(x)
        return self.out(x).flatten(1), feats


class MultiDisc(nn.Module):
    def __init__(self, discs, pools=None):
        super().__init__()
        self.discs = nn.ModuleList(discs)
        self.pools = pools or [nn.Identity()] * len(discs)

    def forward(self, x):
        results, feats = [], []
        for disc, pool in zip(self.discs, self.pools):
            r, f = disc(pool(x))
            results.append(r)
            feats.append(f)
        return results, feats


class HiFiGAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = Generator()
        self.mpd = MultiDisc([PeriodDisc(2), PeriodDisc(3)])
        self.msd = MultiDisc([ScaleDisc(), ScaleDisc()], [nn.Identity(), nn.AvgPool1d(4, 2, padding=2)])

    def forward(self, mel):
        return {"generated_wav": self.generator(mel)}

    def discriminate(self, audio, generated_wav, detach=False, **batch):
        """Scores for real and generated audio; detach=True for the discriminator update."""
        fake = generated_wav.detach() if detach else generated_wav
        t = min(audio.size(-1), fake.size(-1))
        audio, fake = audio[..., :t], fake[..., :t]
        mpd_gt, mpd_gt_feat = self.mpd(audio)
        mpd_gen, mpd_gen_feat = self.mpd(fake)
        msd_gt, msd_gt_feat = self.msd(audio)
        msd_gen, msd_gen_feat = self.msd(fake)
        return {"gt_res": mpd_gt + msd_gt, "gt_feat": mpd_gt_feat + msd_gt_feat,
                "gen_res": mpd_gen + msd_gen, "gen_feat": mpd_gen_feat + msd_gen_feat}
