import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTap:
    """Capture the output of the named submodule of a model with a forward hook."""

    def __init__(self, model, layer_name):
        self.feats = None
        layer = dict(model.named_modules())[layer_name]
        self.handle = layer.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.feats = output.detach()


class DistillationModel(nn.Module):
    def __init__(self, teacher, student, layer, s_dim, t_dim, feat_weight=1.0):
        super().__init__()
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.adapter = nn.Linear(s_dim, t_dim)
        self.feat_weight = feat_weight
        # identical capture for teacher and student
        self.t_tap = FeatureTap(self.teacher, layer)
        self.s_tap = FeatureTap(self.student, layer)

    def loss(self, x, y):
        with torch.no_grad():
            self.teacher(x)
        logits = self.student(x)
        task = F.cross_entropy(logits, y)
        feat = F.mse_loss(self.adapter(self.s_tap.feats), self.t_tap.feats)
        return task + self.feat_weight * feat, task, feat
