import torch
from torch import nn
import torch.nn.functional as F


class Distiller:
    """Student/teacher MLM distillation loop (DistilBERT recipe, trimmed)."""

    def __init__(self, student, teacher, vocab_size, mask_id, temperature=2.0,
                 alpha_ce=0.5, alpha_mlm=0.5, alpha_cos=0.1, mlm_prob=0.15, lr=3e-3):
        self.student = student
        self.teacher = teacher
        self.teacher.eval()
        self.vocab_size = vocab_size
        self.mask_id = mask_id
        self.temperature = temperature
        self.alpha_ce, self.alpha_mlm, self.alpha_cos = alpha_ce, alpha_mlm, alpha_cos
        self.mlm_prob = mlm_prob
        self.ce_loss_fct = nn.KLDivLoss(reduction="batchmean")
        self.lm_loss_fct = nn.CrossEntropyLoss(ignore_index=-100)
        self.cosine_loss_fct = nn.CosineEmbeddingLoss(reduction="mean")
        self.optimizer = torch.optim.Adam(student.parameters(), lr=lr)
        self.total_loss_epoch = 0.0
        self.last_loss = 0.0
        self.last_loss_ce = 0.0

    def prepare_batch_mlm(self, token_ids):
        # integer bookkeeping, edited in place; none of it is part of the graph
        mlm_labels = token_ids.clone()
        pred_mask = torch.rand(token_ids.shape) < self.mlm_prob
        pred_mask[:, 0] = True
        masked_ids = token_ids.clone()
        masked_ids[pred_mask] = self.mask_id
        mlm_labels[~pred_mask] = -100
        return masked_ids, mlm_labels

    def step(self, input_ids, lm_labels):
        s_logits, s_hidden = self.student(input_ids)
        with torch.no_grad():
            t_logits, t_hidden = self.teacher(input_ids)

        mask = (lm_labels > -1).unsqueeze(-1).expand_as(s_logits)
        s_sel = torch.masked_select(s_logits, mask).view(-1, s_logits.size(-1))
        t_sel = torch.masked_select(t_logits, mask).view(-1, s_logits.size(-1))

        T = self.temperature
        loss_ce = self.ce_loss_fct(F.log_softmax(s_sel / T, dim=-1), F.softmax(t_sel / T, dim=-1)) * T ** 2
        loss = self.alpha_ce * loss_ce
        loss_mlm = self.lm_loss_fct(s_logits.view(-1, s_logits.size(-1)), lm_labels.view(-1))
        loss = loss + self.alpha_mlm * loss_mlm

        s_h = s_hidden.reshape(-1, s_hidden.size(-1))
        t_h = t_hidden.reshape(-1, t_hidden.size(-1))
        target = s_h.new(s_h.size(0)).fill_(1)
        loss_cos = self.cosine_loss_fct(s_h, t_h, target)
        loss = loss + self.alpha_cos * loss_cos

        # bookkeeping only
        self.total_loss_epoch += loss.item()
        self.last_loss = loss.item()
        self.last_loss_ce = loss_ce.item()

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss
