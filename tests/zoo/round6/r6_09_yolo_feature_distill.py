"""expect: GL001 63
dynamic: confirm
source: https://github.com/Syencil/mobile-yolov5-pruning-distillation/issues/83

Feature-based knowledge distillation for a small detector. Forward hooks
capture intermediate student and teacher feature maps; a helper then runs the
teacher and applies the channel-matching "converter" convs. The whole helper
body sits under torch.no_grad() - right for the teacher, but the student
features are converted there too, so the feature-distillation term has no
graph: neither the student converters nor the student backbone learn from it
(the reported symptom: adding feature distillation changed nothing). The
repository's later "fix some grad bugs" commit took the feature conversion
out of the no_grad block.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

activation = {}


def get_activation(name):
    def hook(module, inputs, output):
        activation[name] = output
    return hook


class Converter(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, 1, bias=False)
        self.bn = nn.BatchNorm2d(c2)

    def forward(self, x):
        return F.relu6(self.bn(self.conv(x)))


def backbone(widths):
    layers, c_in = [], 3
    for w in widths:
        layers.append(nn.Sequential(nn.Conv2d(c_in, w, 3, stride=2, padding=1), nn.ReLU()))
        c_in = w
    return nn.Sequential(*layers)


class Detector(nn.Module):
    def __init__(self, widths, n_out=6):
        super().__init__()
        self.body = backbone(widths)
        self.head = nn.Conv2d(widths[-1], n_out, 1)

    def forward(self, x):
        return self.head(self.body(x))


def register_feature_hooks(student, teacher):
    for i in range(2):
        student.body[i].register_forward_hook(get_activation(f"s_f{i}"))
        teacher.body[i].register_forward_hook(get_activation(f"t_f{i}"))


def teacher_targets_and_features(teacher, s_converters, imgs):
    with torch.no_grad():
        t_pred = teacher(imgs)
        s_feats = [conv(activation[f"s_f{i}"]) for i, conv in enumerate(s_converters)]
        t_feats = [activation[f"t_f{i}"] for i in range(len(s_converters))]
    return t_pred, s_feats, t_feats


def feature_distillation_loss(s_feats, t_feats, weight=0.05):
    return sum(F.mse_loss(s, t) for s, t in zip(s_feats, t_feats)) * weight


def train_step(student, teacher, s_converters, optimizer, imgs, targets):
    optimizer.zero_grad()
    pred = student(imgs)
    t_pred, s_feats, t_feats = teacher_targets_and_features(teacher, s_converters, imgs)
    loss = F.mse_loss(pred, targets)
    loss = loss + F.mse_loss(pred, t_pred)
    feat_loss = feature_distillation_loss(s_feats, t_feats)
    loss = loss + feat_loss
    loss.backward()
    optimizer.step()
    return feat_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    student, teacher = Detector([4, 8]), Detector([16, 32])
    teacher.eval()
    register_feature_hooks(student, teacher)
    s_converters = nn.ModuleList([Converter(4, 16), Converter(8, 32)])
    params = list(student.parameters()) + list(s_converters.parameters())
    optimizer = torch.optim.SGD(params, lr=0.01)
    imgs, targets = torch.rand(2, 3, 16, 16), torch.rand(2, 6, 4, 4)
    feat_loss = train_step(student, teacher, s_converters, optimizer, imgs, targets)
    assert feat_loss.item() > 0 and not feat_loss.requires_grad
    assert all(p.grad is None for p in s_converters.parameters())
    assert student.head.weight.grad is not None
    print("OK: feature-distillation term carries no gradient; converters never train")
