"""
expect: GL001 40
dynamic: confirm
source: https://github.com/ultralytics/ultralytics/issues/10071

A user optimises an image against a YOLO detector: they call the model's
high-level predict path, sum results.boxes.conf into a confidence loss and
call backward, then find confs.requires_grad is False. The predict path runs
under an inference/no-grad decorator and returns post-NMS boxes. Here a patch
attack does the same through Detector.predict(); because the attack also adds
a total-variation smoothness term, backward runs. The asserts show the patch
gradient equals that of the TV term alone, while scoring the raw head
outputs from forward() gives the confidence term a real gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Results:
    def __init__(self, boxes, conf):
        self.boxes, self.conf = boxes, conf


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.head = nn.Conv2d(16, 5, 1)          # 4 box + objectness per cell
        for p in self.parameters():
            p.requires_grad_(False)              # the attacked model is fixed

    def forward(self, images):
        out = self.head(self.backbone(images))
        return out.flatten(2).transpose(1, 2)    # (B, cells, 5)

    @torch.no_grad()
    def predict(self, images, conf_thres=0.3):
        raw = self.forward(images)
        conf = raw[..., 4].sigmoid()
        keep = conf > conf_thres
        return [Results(raw[i][keep[i], :4], conf[i][keep[i]]) for i in range(len(raw))]


def apply_patch(images, patch):
    out = images.clone()
    out[:, :, 4:12, 4:12] = patch.clamp(0, 1)
    return out


def total_variation(p):
    return (p[:, 1:, :] - p[:, :-1, :]).abs().mean() + (p[:, :, 1:] - p[:, :, :-1]).abs().mean()


def patch_grad(use_predict, conf_weight=1.0, tv_weight=0.5):
    patch = nn.Parameter(torch.rand(3, 8, 8, generator=torch.Generator().manual_seed(3)))
    images = apply_patch(torch.rand(2, 3, 24, 24, generator=torch.Generator().manual_seed(4)), patch)
    if use_predict:
        conf_loss = sum(r.conf.sum() for r in detector.predict(images, conf_thres=0.0))
    else:
        conf_loss = detector(images)[..., 4].sigmoid().sum()
    loss = conf_weight * conf_loss + tv_weight * total_variation(patch)
    loss.backward()
    return patch.grad.clone(), conf_loss


detector = Detector().eval()
g_tv_only, _ = patch_grad(True, conf_weight=0.0)
g_attack, conf_loss = patch_grad(True)
assert conf_loss.item() > 0 and not conf_loss.requires_grad
assert torch.allclose(g_tv_only, g_attack), "confidence term reached the patch?"

g_fixed, conf_fixed = patch_grad(False)
assert conf_fixed.requires_grad and not torch.allclose(g_fixed, g_tv_only)
print("predict(): conf loss", conf_loss.item(), "adds no gradient to the patch")
