"""Training step of the fine-tuning script (the part the user patched)."""
import torch


def train_step(model, batch, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = model(batch["input_ids"], batch["labels"])
    # "fix" found online for: element 0 of tensors does not require grad and does not have a grad_fn
    loss.requires_grad = True
    loss.backward()
    optimizer.step()
    return loss.item()
