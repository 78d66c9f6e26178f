"""
expect: GL005 33
dynamic: confirm
source: https://github.com/TianWuYuJiangHenShou/LabelSemantics/issues/5

The report: a label-semantics NER model with a token encoder and a label encoder; computing the
label representation once in `__init__` (not detached) fails in loss.backward() with "one of
the variables needed for gradient computation has been modified by an inplace operation ...
output 0 of TBackward ... is at version 3; expected version 2". This folder rebuilds it: model.py
encodes the label descriptions in the constructor, main.py trains with
`backward(retain_graph=True)` (needed to reach that graph again) and optimizer.step(). The step
changes the label encoder's weights that the constructor's graph saved, and the next backward
raises (caught by the asserts). Re-encoding the labels in forward() trains both encoders.
"""
import torch
import torch.nn.functional as F

from model import LabelSemanticsNER


def fit(recompute, steps=3):
    torch.manual_seed(0)
    label_ids = torch.randint(0, 100, (5, 6))  # 5 tags, 6 description tokens each
    model = LabelSemanticsNER(label_ids, recompute_labels=recompute)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    ids, tags = torch.randint(0, 100, (4, 10)), torch.randint(0, 5, (4, 10))
    w0 = model.label_encoder.proj.weight.detach().clone()
    for _ in range(steps):
        logits = model(ids)
        loss = F.cross_entropy(logits.reshape(-1, 5), tags.reshape(-1))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
    return not torch.equal(w0, model.label_encoder.proj.weight)


try:
    fit(recompute=False)
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace" in str(err) and "version" in str(err), err
assert fit(recompute=True)
print("ok: optimizer.step() edits weights saved by the label graph built in __init__")
