"""
expect: none
dynamic: dismiss
source: https://github.com/threestudio-project/threestudio/issues/181

In threestudio's ProlificDreamer guidance the VSD loss and the LoRA loss are simply added, and
a user asked whether that lets the VSD term train the LoRA UNet, unlike the paper's separate
updates. It does not: both noise predictions used by the VSD gradient are computed under
torch.no_grad(), the VSD target is detached, and the LoRA loss is computed on detached
latents. So the scene parameters are trained only by the VSD term and the LoRA UNet only by its
own denoising loss. The asserts check exactly that split (the latent gradient equals the
weighted noise residual, the LoRA gradients of the sum equal those of the LoRA loss alone, the
frozen UNet gets none) and that one optimiser step updates both scene and LoRA.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, C, HW = 4, 4, 8


class Scene(nn.Module):
    """Stand-in for the 3D representation: renders latents for a batch of cameras."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 64), nn.Tanh(), nn.Linear(64, C * HW * HW))

    def forward(self, cams):
        return self.net(cams).view(-1, C, HW, HW)


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(C + 1, 16, 3, padding=1), nn.Conv2d(16, C, 3, padding=1)

    def forward(self, x, t):
        tt = t.view(-1, 1, 1, 1).expand(-1, 1, HW, HW)
        return self.conv2(F.silu(self.conv1(torch.cat([x, tt], 1))))


alphas = torch.linspace(0.99, 0.1, 1000)


def vsd_losses(latents, unet, unet_lora):
    t = torch.randint(20, 980, (B,))
    a = alphas[t].view(-1, 1, 1, 1)
    with torch.no_grad():
        noise = torch.randn_like(latents)
        noisy = a.sqrt() * latents + (1 - a).sqrt() * noise
        noise_pred_pretrain = unet(noisy, t.float() / 1000)
        noise_pred_est = unet_lora(noisy, t.float() / 1000)
    w = 1 - a
    grad = w * (noise_pred_pretrain - noise_pred_est)
    target = (latents - grad).detach()
    loss_vsd = 0.5 * F.mse_loss(latents, target, reduction="sum") / B

    t2 = torch.randint(0, 1000, (B,))
    a2 = alphas[t2].view(-1, 1, 1, 1)
    noise2 = torch.randn_like(latents)
    noisy2 = a2.sqrt() * latents.detach() + (1 - a2).sqrt() * noise2
    loss_lora = F.mse_loss(unet_lora(noisy2, t2.float() / 1000), noise2)
    return loss_vsd, loss_lora, grad


scene, unet, unet_lora = Scene(), TinyUNet().requires_grad_(False), TinyUNet()
opt = torch.optim.Adam(list(scene.parameters()) + list(unet_lora.parameters()), lr=1e-3)
cams = torch.randn(B, 6)

torch.manual_seed(5)
latents = scene(cams)
latents.retain_grad()
loss_vsd, loss_lora, grad = vsd_losses(latents, unet, unet_lora)
(loss_vsd + loss_lora).backward()
assert torch.allclose(latents.grad, grad / B, atol=1e-6)
lora_grads_total = [p.grad.clone() for p in unet_lora.parameters()]
assert all(p.grad is None for p in unet.parameters())
assert all(p.grad is not None for p in scene.parameters())

unet_lora.zero_grad()
torch.manual_seed(5)
_, loss_lora_only, _ = vsd_losses(scene(cams), unet, unet_lora)
loss_lora_only.backward()
assert all(torch.allclose(a, p.grad) for a, p in zip(lora_grads_total, unet_lora.parameters()))

w_scene, w_lora = scene.net[0].weight.detach().clone(), unet_lora.conv1.weight.detach().clone()
opt.zero_grad()
latents = scene(cams)
sum(vsd_losses(latents, unet, unet_lora)[:2]).backward()
opt.step()
assert not torch.equal(w_scene, scene.net[0].weight) and not torch.equal(w_lora, unet_lora.conv1.weight)
print("q18 ok: VSD's no_grad noise estimates keep the scene and LoRA updates separate by design")
