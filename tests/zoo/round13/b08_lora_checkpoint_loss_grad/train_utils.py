import torch


def train(model, train_dataloader, optimizer, gradient_accumulation_steps=1, num_epochs=1):
    """Fine-tuning loop in the style of llama-recipes' utils/train_utils.py."""
    model.train()
    losses = []
    for _ in range(num_epochs):
        for step, batch in enumerate(train_dataloader):
            loss = model(**batch)["loss"]
            loss = loss / gradient_accumulation_steps
            if not loss.requires_grad:
                loss.requires_grad = True
            loss.backward()
            if (step + 1) % gradient_accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
            losses.append(loss.detach().float().item())
    return losses
