"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/transformers/blob/7f51f558038d1023dfb5032bba264f19f18fe559/examples/research_projects/distillation/distiller.py

Language-model distillation (DistilBERT). The Distiller runs the teacher under
torch.no_grad(), so its logits and hidden states carry no graph; the student is
trained with a temperature-scaled KL term against the teacher, the plain MLM loss and
a cosine loss that aligns student and teacher hidden states. The teacher outputs are
meant to be constants (a detached teacher), the .item() calls only feed the running
loss counters, and the in-place edits in prepare_batch_mlm are on integer token ids
and labels that no recorded op saves. The asserts show that every student parameter
gets a gradient from the distillation term alone, the teacher gets none and stays
unchanged, and the student's KL to the teacher drops during a short run.
"""
import copy

import torch
from torch import nn

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from distiller import Distiller

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, MASK_ID = 30, 24, 1


class TinyMLM(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 2, 48, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        h = self.encoder(self.emb(ids))
        return self.head(h), h


def main():
    teacher = TinyMLM(depth=2)
    student = TinyMLM(depth=1)
    teacher_before = copy.deepcopy(teacher.state_dict())
    distiller = Distiller(student, teacher, VOCAB, MASK_ID, temperature=1.0, alpha_ce=5.0, alpha_mlm=0.2, lr=2e-3)
    tokens = torch.randint(2, VOCAB, (16, 10))

    # gradient of the distillation term alone reaches the whole student
    ids, labels = distiller.prepare_batch_mlm(tokens)
    s_logits, _ = student(ids)
    with torch.no_grad():
        t_logits, _ = teacher(ids)
    kl = distiller.ce_loss_fct(torch.log_softmax(s_logits, -1), torch.softmax(t_logits, -1))
    kl.backward()
    for name, p in student.named_parameters():
        assert p.grad is not None, name
    assert all(p.grad is None for p in teacher.parameters())
    student.zero_grad()

    def kl_to_teacher():
        with torch.no_grad():
            s, _ = student(probe)
            t, _ = teacher(probe)
            sel = probe_labels > -1
            return distiller.ce_loss_fct(torch.log_softmax(s[sel], -1), torch.softmax(t[sel], -1)).item()

    probe, probe_labels = distiller.prepare_batch_mlm(tokens)
    before = kl_to_teacher()
    for _ in range(150):
        distiller.step(probe, probe_labels)
    after = kl_to_teacher()
    print(f"KL(student||teacher) {before:.4f} -> {after:.4f}, last loss {distiller.last_loss:.4f}")
    assert after < 0.5 * before
    for k, v in teacher.state_dict().items():
        assert torch.equal(v, teacher_before[k])
    print("OK: detached teacher, .item() only for logging")


if __name__ == "__main__":
    main()
