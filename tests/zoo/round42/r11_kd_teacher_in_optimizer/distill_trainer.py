"""Feature-distillation trainer: optimizer groups, forward hooks and the train step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureHooks:
    """Collects the outputs of the chosen layers on every forward pass."""

    def __init__(self, modules):
        self.outputs = []
        self.handles = [m.register_forward_hook(self._save) for m in modules]

    def _save(self, module, inputs, output):
        self.outputs.append(output)

    def pop(self):
        outs, self.outputs = self.outputs, []
        return outs


def build_optimizer(student, teacher, aligners, lr=0.05, momentum=0.9, decay=5e-4):
    """Three parameter groups as in the YOLO trainer; the teacher is appended so it can 'learn too'."""
    g_weight, g_bn, g_bias = [], [], []
    for model in (student, teacher, aligners):
        for m in model.modules():
            if hasattr(m, "bias") and isinstance(m.bias, nn.Parameter):
                g_bias.append(m.bias)
            if isinstance(m, nn.BatchNorm2d):
                g_bn.append(m.weight)
            elif hasattr(m, "weight") and isinstance(m.weight, nn.Parameter):
                g_weight.append(m.weight)
    opt = torch.optim.SGD(g_bn, lr=lr, momentum=momentum)
    opt.add_param_group({"params": g_weight, "weight_decay": decay})
    opt.add_param_group({"params": g_bias})
    return opt


class DistillTrainer:
    def __init__(self, student, teacher, s_layers, t_layers, aligners, kd_weight=2.0, temp=2.0):
        self.student, self.teacher, self.aligners = student, teacher, aligners
        self.s_hooks, self.t_hooks = FeatureHooks(s_layers), FeatureHooks(t_layers)
        self.kd_weight, self.temp = kd_weight, temp

    def distill_loss(self, s_feats, t_feats, s_logits, t_logits):
        feat = sum(F.mse_loss(a(s), t) for a, s, t in zip(self.aligners, s_feats, t_feats))
        soft = F.kl_div(F.log_softmax(s_logits / self.temp, 1), F.softmax(t_logits / self.temp, 1),
                        reduction="batchmean") * self.temp ** 2
        return feat + soft

    def train_step(self, imgs, targets, optimizer):
        s_logits = self.student(imgs)
        task_loss = F.cross_entropy(s_logits, targets)
        with torch.no_grad():
            t_logits = self.teacher(imgs)
        s_feats, t_feats = self.s_hooks.pop(), self.t_hooks.pop()
        loss = task_loss + self.kd_weight * self.distill_loss(s_feats, t_feats, s_logits, t_logits)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()
