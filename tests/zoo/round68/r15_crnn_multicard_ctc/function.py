import torch


def gather_outputs(outputs):
    """Merge per-card CTC outputs (T, b, C) into one (T, B, C) tensor on the host."""
    return torch.cat([o.detach().cpu() for o in outputs], dim=1)


def train_one_epoch(config, train_loader, model, criterion, optimizer, converter):
    model.train()
    losses = []
    for inp, labels in train_loader:
        # split the batch over the cards, as the 8P launcher does
        chunks = inp.chunk(config["num_cards"], dim=0)
        outputs = [model(chunk) for chunk in chunks]
        preds = gather_outputs(outputs) if config["num_cards"] > 1 else outputs[0]

        batch_size = inp.size(0)
        text, length = converter.encode(labels)
        preds_size = torch.full((batch_size,), preds.size(0), dtype=torch.long)
        loss = criterion(preds, text, preds_size, length)
        if not loss.requires_grad:
            loss.requires_grad_(True)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def gather_outputs_keep_graph(outputs):
    return torch.cat(outputs, dim=1)
