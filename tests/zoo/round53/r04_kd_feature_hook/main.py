"""
expect: GL001 hooks.py:15
dynamic: confirm
source: https://github.com/ssyounge/ASIB/blob/c3e910fcd52a2430d98c0c789074a1ab1dd0e2c5/methods/feature_kd.py

Feature-map knowledge distillation: a student classifier learns from labels, from the teacher's
softened logits, and from a feature-imitation term that pulls the student's intermediate stage
outputs toward the teacher's. The stage outputs are captured by one shared forward-hook helper
(hooks.py) that stores output.detach() - right for the frozen teacher, but the same helper is
attached to the student, so the student's captured features are cut from the graph and the
feature loss has no grad_fn at all. The student trains on CE + KD only and the imitation term is
silently dead. The asserts show that adding the feature term does not change a single student
gradient, and that a student hook that keeps the graph does change them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatHook


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Sequential(nn.Linear(12, width), nn.ReLU()),
            nn.Sequential(nn.Linear(width, 16), nn.ReLU()),
            nn.Sequential(nn.Linear(16, 16), nn.ReLU()),
        )
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        return self.head(self.backbone(x))


def feat_mse(student_feats, teacher_feats, layer_ids, weights):
    return sum(w * F.mse_loss(student_feats[k], teacher_feats[k]) for k, w in zip(layer_ids, weights))


class FeatureKD:
    def __init__(self, teacher, student, alpha=0.5, T=4.0, gamma_feat=1.0, layer_ids=(1, 2)):
        self.teacher, self.student = teacher.eval(), student
        self.alpha, self.T, self.gamma = alpha, T, gamma_feat
        self.layer_ids, self.layer_w = list(layer_ids), [0.5, 0.5]
        self.hook_s = FeatHook(student.backbone, self.layer_ids)
        self.hook_t = FeatHook(teacher.backbone, self.layer_ids)

    def losses(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        ce = F.cross_entropy(s_logits, y)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, 1), F.softmax(t_logits / self.T, 1),
                      reduction="batchmean") * self.T ** 2
        feat = feat_mse(self.hook_s.features, self.hook_t.features, self.layer_ids, self.layer_w)
        self.hook_s.clear(); self.hook_t.clear()
        return (1 - self.alpha) * ce + self.alpha * kd, self.gamma * feat


def student_grads(loss, student):
    student.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in student.backbone.parameters()]


torch.manual_seed(0)
torch.set_num_threads(1)
teacher, student = Net(32), Net(24)
x, y = torch.randn(40, 12), torch.randint(0, 5, (40,))
kd = FeatureKD(teacher, student)

base, feat = kd.losses(x, y)
assert not feat.requires_grad and feat.grad_fn is None and feat.item() > 0
g_base = student_grads(base, student)
base2, feat2 = kd.losses(x, y)
g_total = student_grads(base2 + feat2, student)
assert all(torch.equal(a, b) for a, b in zip(g_base, g_total)), "feature term adds nothing"


class GraphKeepingHook(FeatHook):
    def _capture(self, idx):
        def hook(module, inputs, output):
            self.features[idx] = output
        return hook


kd.hook_s.close()
kd.hook_s = GraphKeepingHook(student.backbone, kd.layer_ids)
base3, feat3 = kd.losses(x, y)
assert feat3.requires_grad
g_fixed = student_grads(base3 + feat3, student)
first_layer_change = (g_fixed[0] - g_base[0]).abs().max().item()
assert first_layer_change > 1e-6
print("detached student hook: feature loss %.3f reaches no weight; graph-keeping hook changes grads by %.2e"
      % (feat.item(), first_layer_change))
