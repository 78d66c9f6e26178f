"""
expect: GL005 51
dynamic: confirm
source: https://github.com/geekyutao/RN/pull/19

Inpainting GAN (region normalization): process() runs the discriminator on real,
detached-fake and fake images and builds both losses; backward() then does the
discriminator backward and optimizer step before the generator backward. The
generator's adversarial term went through the discriminator whose weights the
step just changed in place, so the generator backward fails with a version
error. The PR moved the discriminator backward/step. Asserts show the error
and that stepping the discriminator after both backwards works.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class InpaintModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
        self.dis = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(8, 1, 3, padding=1))
        self.gen_opt = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.dis_opt = torch.optim.Adam(self.dis.parameters(), lr=1e-3)
        self.bce = nn.BCEWithLogitsLoss()

    def process(self, images, masks):
        self.gen_opt.zero_grad()
        self.dis_opt.zero_grad()
        outputs = self.gen(torch.cat([images * (1 - masks), masks], dim=1))
        dis_real = self.dis(images)
        dis_fake = self.dis(outputs.detach())
        dis_loss = (self.bce(dis_real, torch.ones_like(dis_real))
                    + self.bce(dis_fake, torch.zeros_like(dis_fake))) / 2
        gen_fake = self.dis(outputs)
        gen_loss = self.bce(gen_fake, torch.ones_like(gen_fake)) + (outputs - images).abs().mean()
        return gen_loss, dis_loss

    def backward(self, gen_loss, dis_loss, fixed=False):
        if fixed:
            dis_loss.backward()
            gen_loss.backward()
            self.dis_opt.step()
            self.gen_opt.step()
            return
        dis_loss.backward()
        self.dis_opt.step()
        gen_loss.backward()
        self.gen_opt.step()


model = InpaintModel()
images = torch.rand(2, 3, 8, 8)
masks = (torch.rand(2, 1, 8, 8) > 0.7).float()

err = None
try:
    model.backward(*model.process(images, masks))
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

g0 = model.gen[0].weight.detach().clone()
gen_loss, dis_loss = model.process(images, masks)
model.backward(gen_loss, dis_loss, fixed=True)
assert not torch.equal(model.gen[0].weight, g0)
print("ok: discriminator step before generator backward breaks the graph")
