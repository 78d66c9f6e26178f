"""
expect: GL004 learner.py:23
dynamic: confirm
source: https://github.com/3neutronstar/knowledge-distillation/blob/0152fa7f825f3c75ec62c8921f87545378a636b3/Learner/ensemble_learner.py

In this compression-by-distillation project the deep-mutual-learning learner keeps the
per-batch classification losses and outputs of every student in lists stored on the learner
object (`self.classification_loss`, `self.model_output`) and never empties them.  From the
second batch on, the update loop (zip over the optimizers and that list) picks up losses
of the first batch whose graph was already freed, so backward complains about going
through the graph a second time; the commit "change for the fixing auto grad but failed"
answered with `model_loss.backward(retain_graph=True)`.  That keeps every student graph
alive in the ever-growing lists and silences the first error, but it only hides the real
one: the loop keeps back-propagating batch 0, and as soon as an optimizer step has rewritten
the weights that graph saved, backward fails with "modified by an inplace operation"
(a later commit finally cleared the lists).  The asserts show the lists growing by one entry
per student per batch, the inplace error on the second batch, and - with the lists rebuilt
every batch and no retained graph - five batches that train both students.
"""
import torch
import torch.nn as nn

from dml import DeepMutualLearning
from learner import EnsembleLearner, ClearingEnsembleLearner

torch.manual_seed(0)
torch.set_num_threads(1)

data = torch.randn(5, 16, 10)
target = torch.randint(0, 4, (5, 16))


def cohort():
    torch.manual_seed(1)
    models = [nn.Sequential(nn.Linear(10, 12), nn.ReLU(), nn.Linear(12, 4)) for _ in range(2)]
    optims = [torch.optim.SGD(m.parameters(), lr=0.1) for m in models]
    return models, optims


models, optims = cohort()
learner = EnsembleLearner(models, optims, DeepMutualLearning())
sizes = []
error = None
for b in range(5):
    try:
        learner.train_batch(data[b], target[b])
    except RuntimeError as err:
        error = (b, str(err))
        break
    sizes.append(len(learner.classification_loss))
assert sizes == [2], sizes
assert len(learner.classification_loss) == 4, "the lists keep every batch's graph alive"
assert error is not None and error[0] == 1, error
assert "modified by an inplace operation" in error[1], error

models, optims = cohort()
before = [m[0].weight.detach().clone() for m in models]
clean = ClearingEnsembleLearner(models, optims, DeepMutualLearning())
losses = [clean.train_batch(data[b], target[b]) for b in range(5)]
for m, w0 in zip(models, before):
    assert not torch.equal(m[0].weight.detach(), w0)
assert len(clean.classification_loss) == 0
print("retained lists: backward refused on batch %d (inplace check), as expected" % error[0])
print("cleared lists: 5 batches, summed loss %.3f -> %.3f" % (losses[0], losses[-1]))
