"""Hook-based hierarchical feature distillation for a small detector (student <- teacher)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HierarchicalDistiller(nn.Module):
    def __init__(self, student, teacher, layer_pairs, channels):
        super().__init__()
        self.student, self.teacher = student, teacher
        self.layer_pairs = layer_pairs
        # 1x1 adaptors mapping student channels onto teacher channels, one per level
        self.adaptors = nn.ModuleList(nn.Conv2d(cs, ct, 1) for cs, ct in channels)
        self._feats = {"student": {}, "teacher": {}}
        s_mods, t_mods = dict(student.named_modules()), dict(teacher.named_modules())
        for s_name, t_name in layer_pairs:
            s_mods[s_name].register_forward_hook(self._save("student", s_name))
            t_mods[t_name].register_forward_hook(self._save("teacher", t_name))
        for p in teacher.parameters():
            p.requires_grad_(False)

    def _save(self, role, name):
        def hook(module, inputs, output):
            self._feats[role][name] = output
        return hook

    def clear_caches(self):
        self._feats["student"].clear()
        self._feats["teacher"].clear()

    def compute_hierarchical_distillation_loss(self, images):
        self.clear_caches()
        with torch.no_grad():
            self.teacher(images)
            self.student(images)
        loss = images.new_zeros(())
        for adaptor, (s_name, t_name) in zip(self.adaptors, self.layer_pairs):
            s_feat = adaptor(self._feats["student"][s_name])
            t_feat = self._feats["teacher"][t_name]
            loss = loss + F.mse_loss(s_feat, t_feat)
        return loss / len(self.layer_pairs)
