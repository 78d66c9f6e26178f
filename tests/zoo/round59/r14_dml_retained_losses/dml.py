"""Deep-mutual-learning mimicry term: each student matches its peers' soft outputs."""
import torch.nn.functional as F


class DeepMutualLearning:
    def __call__(self, idx, outputs):
        mine = outputs[idx]
        kd = 0.0
        for j, other in enumerate(outputs):
            if j == idx:
                continue
            kd = kd + F.kl_div(F.log_softmax(mine, dim=1),
                               F.softmax(other.detach(), dim=1),
                               reduction="batchmean")
        return kd / (len(outputs) - 1)
