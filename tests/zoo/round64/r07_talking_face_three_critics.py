"""
expect: none
dynamic: dismiss
source: https://github.com/ardatiftikci/Talking-Face-Generation-with-GANs/blob/25d383c59fa5a645cc7aec964106dfa132ec3f72/train.py#L123-L216

Audio-driven talking-face GAN with three critics (per frame, per sequence,
audio-lip sync).  In the critic phase the generated video is NOT detached:
each critic loss is back-propagated with retain_graph=True and that critic's
optimizer steps before the next critic runs on the same fake video.  This
looks like the classic "optimizer.step() between two backward calls through
one graph" error, but it is not one here: the graph the three losses share is
only the generator's, and no generator weight changes in this phase; each
stepped critic is never on the path of a later backward.  The gradients that
leak into the generator are wiped by g_optimizer.zero_grad() before the
generator loss, computed on a fresh fake video.  The program mirrors that
loop on tiny tensors; the asserts check it runs, all four networks update, the
critic-phase leak really reached the generator, and the generator update uses
exactly the gradient of its own loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, F_AUD, PIX = 2, 6, 5, 16


class VideoGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.audio = nn.GRU(F_AUD, 12, batch_first=True)
        self.frame = nn.Linear(12 + PIX, PIX)

    def forward(self, audio, first_frame):
        a, _ = self.audio(audio)
        ref = first_frame.unsqueeze(1).expand(-1, a.shape[1], -1)
        return torch.tanh(self.frame(torch.cat([a, ref], dim=-1)))     # (B, T, PIX)


class FrameCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(2 * PIX, 1)

    def forward(self, video, first_frame):
        ref = first_frame.unsqueeze(1).expand_as(video)
        return self.net(torch.cat([video, ref], dim=-1))


class SeqCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(PIX + F_AUD, 8, batch_first=True)
        self.out = nn.Linear(8, 1)

    def forward(self, video, audio):
        h, _ = self.rnn(torch.cat([video, audio], dim=-1))
        return self.out(h[:, -1])


class SyncCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = nn.Linear(3 * PIX, 8)
        self.a = nn.Linear(F_AUD, 8)

    def forward(self, mouth_window, audio_step):
        return (self.v(mouth_window.flatten(1)) * self.a(audio_step)).sum(-1, keepdim=True)


gen, d_frame, d_seq, d_sync = VideoGenerator(), FrameCritic(), SeqCritic(), SyncCritic()
g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
f_opt = torch.optim.Adam(d_frame.parameters(), lr=1e-3)
s_opt = torch.optim.Adam(d_seq.parameters(), lr=1e-3)
y_opt = torch.optim.Adam(d_sync.parameters(), lr=1e-3)
nets = [gen, d_frame, d_seq, d_sync]
before = [[p.detach().clone() for p in n.parameters()] for n in nets]

for it in range(3):
    audio = torch.randn(B, T, F_AUD)
    first = torch.rand(B, PIX)
    real = torch.rand(B, T, PIX)
    c = 2

    fake_video = gen(audio, first)
    d_frame_loss = -d_frame(real, first).mean() + d_frame(fake_video, first).mean()
    f_opt.zero_grad()
    d_frame_loss.backward(retain_graph=True)
    f_opt.step()

    d_seq_loss = -d_seq(real, audio).mean() + d_seq(fake_video, audio).mean()
    s_opt.zero_grad()
    d_seq_loss.backward(retain_graph=True)
    s_opt.step()

    d_sync_loss = (-d_sync(real[:, c - 1:c + 2], audio[:, c]).mean()
                   + d_sync(fake_video[:, c - 1:c + 2], audio[:, c]).mean())
    y_opt.zero_grad()
    d_sync_loss.backward()
    y_opt.step()
    leaked = sum(p.grad.abs().sum().item() for p in gen.parameters())
    assert leaked > 0                       # critic losses did reach the generator

    fake_video = gen(audio, first)
    g_loss = (-d_frame(fake_video, first).mean() - d_seq(fake_video, audio).mean()
              - d_sync(fake_video[:, c - 1:c + 2], audio[:, c]).mean()
              + 10 * (fake_video - real).abs().mean())
    own = torch.autograd.grad(g_loss, list(gen.parameters()), retain_graph=True)
    g_opt.zero_grad()
    g_loss.backward()
    assert all(torch.allclose(o, p.grad) for o, p in zip(own, gen.parameters()))
    g_opt.step()

for n, b in zip(nets, before):
    assert any(not torch.equal(x, p) for x, p in zip(b, n.parameters()))
