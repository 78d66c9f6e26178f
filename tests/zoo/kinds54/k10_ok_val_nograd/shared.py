def epoch(net, data, crit, optim):
    losses = []
    for inp, tgt in data:
        l = crit(net(inp), tgt)
        if net.training:
            optim.zero_grad()
            l.backward()
            optim.step()
        losses.append(l.item())
    return sum(losses) / len(losses)
