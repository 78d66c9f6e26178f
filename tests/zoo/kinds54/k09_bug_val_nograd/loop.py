def pass_over(model, batches, loss_fn, opt):
    total = 0.0
    for x, y in batches:
        loss = loss_fn(model(x), y)
        if model.training:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += loss.item()
    return total / len(batches)
