import torch
import torch.nn as nn
import torch.nn.functional as F


def entropy(probs):
    return -(probs * torch.log(probs + 1e-9)).sum(-1)


class LoRAExpert(nn.Module):
    def __init__(self, d_in, d_out, r=2, scaling=1.0):
        super().__init__()
        self.lora_A = nn.Linear(d_in, r, bias=False)
        self.lora_B = nn.Linear(r, d_out, bias=False)
        self.scaling = scaling

    def forward(self, x):
        return self.lora_B(self.lora_A(x)) * self.scaling


class MoLELinear(nn.Module):
    """Frozen base linear + several pre-trained LoRA experts mixed by a gate."""

    def __init__(self, d_in, d_out, num_experts):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.experts = nn.ModuleList(LoRAExpert(d_in, d_out) for _ in range(num_experts))
        # running statistics kept for logging; registered as parameters so they
        # are saved with the checkpoint, but they are not trained
        self.gates_record = nn.Parameter(torch.zeros(num_experts))
        self.entropy_record = nn.Parameter(torch.zeros(1))

    def forward(self, x, gates):
        result = self.base(x)
        expert_out = torch.stack([e(x) for e in self.experts], dim=1)   # [B, E, D]
        entropy_gating = entropy(gates).mean().detach()
        self.gates_record += gates.clone().detach().mean(dim=0)
        self.entropy_record += entropy_gating
        mixed = (expert_out * gates.unsqueeze(-1)).sum(dim=1)
        return result + mixed


class GatedModel(nn.Module):
    def __init__(self, d_in, d_out, num_experts):
        super().__init__()
        self.wg = nn.Linear(d_in, num_experts)   # the gating network (trained)
        self.layer = MoLELinear(d_in, d_out, num_experts)

    def forward(self, x):
        gates = F.softmax(self.wg(x), dim=-1)
        return self.layer(x, gates)


def mark_only_gate_as_trainable(model):
    for n, p in model.named_parameters():
        p.requires_grad = "wg" in n
