"""expect: GL002 58
dynamic: confirm
source: https://github.com/thuml/predrnn-pytorch/issues/11

A PredRNN-V2 style spatiotemporal predictor whose forward() also builds the
memory-decoupling regulariser (cosine similarity between the adapted cell and
memory increments). The per-step terms are gathered in a Python list and
averaged through torch.tensor(...), which copies the numbers and throws away
their autograd history. The reconstruction term still trains, so nothing
crashes, but the 1x1 adapter conv that only the regulariser depends on never
gets a gradient; backward() is called in a separate trainer function.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STCell(nn.Module):
    def __init__(self, in_ch, hid):
        super().__init__()
        self.hid = hid
        self.conv_x = nn.Conv2d(in_ch, 4 * hid, 3, padding=1)
        self.conv_h = nn.Conv2d(hid, 4 * hid, 3, padding=1)
        self.conv_m = nn.Conv2d(hid, 3 * hid, 3, padding=1)

    def forward(self, x, h, c, m):
        i, f, g, o = torch.split(self.conv_x(x) + self.conv_h(h), self.hid, dim=1)
        delta_c = torch.sigmoid(i) * torch.tanh(g)
        c_next = torch.sigmoid(f) * c + delta_c
        i2, f2, g2 = torch.split(self.conv_m(m), self.hid, dim=1)
        delta_m = torch.sigmoid(i2) * torch.tanh(g2)
        m_next = torch.sigmoid(f2) * m + delta_m
        h_next = torch.sigmoid(o) * torch.tanh(c_next + m_next)
        return h_next, c_next, m_next, delta_c, delta_m


class DecoupledPredictor(nn.Module):
    def __init__(self, in_ch=1, hid=8, beta=0.1):
        super().__init__()
        self.hid, self.beta = hid, beta
        self.cell = STCell(in_ch, hid)
        self.adapter = nn.Conv2d(hid, hid, 1, bias=False)
        self.to_frame = nn.Conv2d(hid, in_ch, 1)

    def _decouple_term(self, delta_c, delta_m):
        dc = F.normalize(self.adapter(delta_c).flatten(2), dim=2)
        dm = F.normalize(self.adapter(delta_m).flatten(2), dim=2)
        return torch.cosine_similarity(dc, dm, dim=2).abs().mean()

    def forward(self, frames):
        b, t, _, hh, ww = frames.shape
        h = c = m = frames.new_zeros(b, self.hid, hh, ww)
        generated, decouple_terms = [], []
        for step in range(t - 1):
            h, c, m, delta_c, delta_m = self.cell(frames[:, step], h, c, m)
            generated.append(self.to_frame(h))
            decouple_terms.append(self._decouple_term(delta_c, delta_m))
        decouple_loss = torch.mean(torch.tensor(decouple_terms))
        generated = torch.stack(generated, dim=1)
        recon = F.mse_loss(generated, frames[:, 1:])
        return generated, recon + self.beta * decouple_loss


def run_iteration(model, optimizer, frames):
    optimizer.zero_grad()
    _, loss = model(frames)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DecoupledPredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    clip = torch.rand(2, 4, 1, 8, 8)
    run_iteration(model, optimizer, clip)
    assert model.to_frame.weight.grad is not None
    assert model.cell.conv_m.weight.grad is not None
    assert model.adapter.weight.grad is None, "adapter should have been cut off"
    print("OK: adapter got no gradient; the decoupling loss was rebuilt with torch.tensor")
