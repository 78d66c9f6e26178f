"""
expect: GL005 33
dynamic: confirm
source: kinds check 51, kind 4

Hard-negative mining for a retrieval model: similarities are selected with a
boolean mask, then the mask is edited in place to drop the diagonal (positives)
for bookkeeping before backward. Indexing saved the mask, so backward raises
"modified by an inplace operation".
"""
import torch
import torch.nn as nn

torch.manual_seed(6)

query_enc = nn.Linear(8, 5)
doc_enc = nn.Linear(8, 5)
queries = torch.randn(6, 8)
docs = torch.randn(6, 8)

q = nn.functional.normalize(query_enc(queries), dim=1)
d = nn.functional.normalize(doc_enc(docs), dim=1)
sim = q @ d.t()
hard = sim.detach() > 0.1
hard.fill_diagonal_(True)
picked = sim[hard]
loss = picked.clamp(min=0).mean()
# count the negatives only: remove positives from the mask


caught = None
try:
    hard[torch.eye(6, dtype=torch.bool)] = False
    loss.backward()
except RuntimeError as err:
    caught = err
assert caught is not None and "modified by an inplace operation" in str(caught), caught
print("ok: backward failed after editing the mask:", str(caught)[:60])
