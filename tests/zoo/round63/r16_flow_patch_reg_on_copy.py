"""
expect: GL001 60
dynamic: confirm
source: https://github.com/anuragranj/flowattack/blob/34a17f5c4a877b1b49c4cdd30961000fe5072baf/main.py

flowattack optimises an adversarial patch against optical-flow networks. In its
attack() loop the patch is pasted into both frames, the two adversarial images are
re-created as leaves (Variable(img.data, requires_grad=True)) so that their input
gradients can be read, and the patch is updated by hand with the clipped sum of
those image gradients. The loss also has a regulariser that should keep the patch
close to its initial pattern, loss = (1 - alpha) * loss_data + alpha * loss_reg, but
loss_reg is computed on just_the_patch = Variable(patch_var.data, requires_grad=True),
a fresh leaf cut from the patch. Its gradient lands on that throw-away copy and is
never used, so alpha only rescales the data term and the regulariser has no effect
on the patch. This reduction keeps a tiny frozen flow net, the masked pasting, the
leaf re-creation and the manual update. The asserts show that the patch trajectory
is bit-identical whether loss_reg is present or replaced by zero, and that when the
patch itself is the leaf (the gradient of the whole loss is taken w.r.t. the patch)
the regulariser pulls the patch clearly closer to its initialisation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyFlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, img1, img2):
        return self.net(torch.cat([img1, img2], dim=1))


flow_net = TinyFlowNet().eval()
for p in flow_net.parameters():
    p.requires_grad = False

H = W = 16
tgt_img = torch.rand(1, 3, H, W) * 2 - 1
ref_img = torch.rand(1, 3, H, W) * 2 - 1
mask = torch.zeros(1, 3, H, W)
mask[..., 5:11, 5:11] = 1.0
patch_init = (torch.rand(1, 3, H, W) * 2 - 1) * mask
with torch.no_grad():
    target_flow = -flow_net(tgt_img, ref_img)


def attack(patch, alpha, lr, n_iter, use_reg=True):
    patch = patch.clone()
    for _ in range(n_iter):
        adv_tgt = (1 - mask) * tgt_img + mask * patch
        adv_ref = (1 - mask) * ref_img + mask * patch
        adv_tgt = adv_tgt.data.clone().requires_grad_(True)
        adv_ref = adv_ref.data.clone().requires_grad_(True)
        just_the_patch = patch.data.clone().requires_grad_(True)

        flow = flow_net(adv_tgt, adv_ref)
        loss_data = (1 - F.cosine_similarity(flow, target_flow, dim=1)).mean()
        loss_reg = F.l1_loss(mask * just_the_patch, mask * patch_init) if use_reg else 0.0
        loss = (1 - alpha) * loss_data + alpha * loss_reg
        loss.backward()

        with torch.no_grad():
            patch -= torch.clamp(0.5 * lr * (adv_tgt.grad + adv_ref.grad), -2, 2)
    return patch


def attack_fixed(patch, alpha, lr, n_iter, use_reg=True):
    patch = patch.clone().requires_grad_(True)
    for _ in range(n_iter):
        adv_tgt = (1 - mask) * tgt_img + mask * patch
        adv_ref = (1 - mask) * ref_img + mask * patch
        flow = flow_net(adv_tgt, adv_ref)
        loss_data = (1 - F.cosine_similarity(flow, target_flow, dim=1)).mean()
        loss_reg = F.l1_loss(mask * patch, mask * patch_init) if use_reg else 0.0
        loss = (1 - alpha) * loss_data + alpha * loss_reg
        grad, = torch.autograd.grad(loss, patch)
        with torch.no_grad():
            patch -= torch.clamp(0.5 * lr * grad, -2, 2)
    return patch.detach()


def dist_to_init(p):
    return (mask * (p - patch_init)).abs().sum().item()


alpha, lr, n_iter = 0.5, 50.0, 30

p_reg = attack(patch_init, alpha, lr, n_iter, use_reg=True)
p_noreg = attack(patch_init, alpha, lr, n_iter, use_reg=False)
assert torch.equal(p_reg, p_noreg), "the regulariser should have no effect on the patch"
assert dist_to_init(p_reg) > 0.0          # the data term did move the patch

f_reg = attack_fixed(patch_init, alpha, lr, n_iter, use_reg=True)
f_noreg = attack_fixed(patch_init, alpha, lr, n_iter, use_reg=False)
assert dist_to_init(f_reg) < 0.8 * dist_to_init(f_noreg), (dist_to_init(f_reg), dist_to_init(f_noreg))

print("r16 ok: reg on a .data copy is ignored (dist %.2f == %.2f); fixed reg pulls patch back (%.2f < %.2f)"
      % (dist_to_init(p_reg), dist_to_init(p_noreg), dist_to_init(f_reg), dist_to_init(f_noreg)))
