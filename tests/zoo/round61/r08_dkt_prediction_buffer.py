"""
expect: none
dynamic: dismiss
source: https://github.com/rofpitchayuth/knowledge-tracing-research/blob/7420e238fa861e125b76ffe80e3be2301461792a/bkt_experiments/models/deep/dkt.py

Deep Knowledge Tracing in a student-modelling experiment suite: an LSTM reads
(skill, correct) one-hot interactions and outputs a probability per skill. The
training loop picks the probability of the skill actually attempted with two
Python loops, reading the skill id with .item() and writing
predictions[b, t, skill_idx] into a pre-allocated torch.zeros buffer, and when
a batch has no valid (unpadded) step it backs up a constant
torch.tensor(0.0, requires_grad=True) so backward() does not fail. This looks
like a list of detaching tricks but it is correct: .item() only produces an
index, the element writes into the zeros buffer are recorded (CopySlices), so
the buffer carries gradients back to the LSTM, and the constant fallback is
only used when there is nothing to learn from. The asserts check that the
buffer's gradient matches a torch.gather version exactly, that training
lowers the loss and changes every weight, and that an all-padding batch
backs up without error and leaves the weights untouched.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
NUM_SKILLS, SEQ = 5, 10


class DKTModel(nn.Module):
    def __init__(self, num_skills=NUM_SKILLS, hidden=16):
        super().__init__()
        self.lstm = nn.LSTM(2 * num_skills, hidden, batch_first=True)
        self.out = nn.Linear(hidden, num_skills)

    def forward(self, inputs):
        h, state = self.lstm(inputs)
        return torch.sigmoid(self.out(h)), state


def make_batch(batch=16, all_padding=False):
    skill_level = torch.rand(batch, NUM_SKILLS)
    skills = torch.randint(0, NUM_SKILLS, (batch, SEQ))
    correct = (torch.rand(batch, SEQ) < skill_level.gather(1, skills)).float()
    inputs = torch.zeros(batch, SEQ, 2 * NUM_SKILLS)
    inputs.scatter_(2, (skills + NUM_SKILLS * correct.long()).unsqueeze(2), 1.0)
    # predict step t+1 from the history up to t
    masks = torch.ones(batch, SEQ - 1)
    if all_padding:
        masks.zero_()
    return inputs[:, :-1], correct[:, 1:].contiguous(), skills[:, 1:].contiguous(), masks


def batch_loss(model, criterion, inputs, targets, skills, masks):
    predictions, _ = model(inputs)
    batch_size, seq_len = skills.shape
    batch_predictions = torch.zeros(batch_size, seq_len)
    for b in range(batch_size):
        for t in range(seq_len):
            skill_idx = skills[b, t].item()
            batch_predictions[b, t] = predictions[b, t, skill_idx]
    preds_flat = batch_predictions.view(-1)
    targets_flat = targets.view(-1)
    valid_indices = masks.view(-1) > 0
    if valid_indices.sum() > 0:
        loss = criterion(preds_flat[valid_indices], targets_flat[valid_indices])
    else:
        loss = torch.tensor(0.0, requires_grad=True)
    return loss


model = DKTModel()
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)

# the zeros buffer carries exactly the gradient of a gather
inputs, targets, skills, masks = make_batch()
batch_loss(model, criterion, inputs, targets, skills, masks).backward()
g_loop = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
preds, _ = model(inputs)
criterion(preds.gather(2, skills.unsqueeze(2)).squeeze(2).reshape(-1), targets.reshape(-1)).backward()
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g_loop, model.parameters()))
model.zero_grad()

before = [p.detach().clone() for p in model.parameters()]
losses = []
for epoch in range(25):
    inputs, targets, skills, masks = make_batch()
    optimizer.zero_grad()
    loss = batch_loss(model, criterion, inputs, targets, skills, masks)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
assert sum(losses[-5:]) < sum(losses[:5])
assert all(not torch.equal(b, p) for b, p in zip(before, model.parameters()))

# an all-padding batch: constant zero loss, no error, nothing moves
snapshot = [p.detach().clone() for p in model.parameters()]
optimizer.zero_grad()
loss = batch_loss(model, criterion, *make_batch(all_padding=True))
loss.backward()
optimizer.step()
assert loss.item() == 0.0
assert all(torch.equal(s, p) for s, p in zip(snapshot, model.parameters()))
print("r08 ok: buffer-filled DKT predictions train like gather; empty batch is a harmless no-op")
