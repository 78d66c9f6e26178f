def run_epoch(model, crit, opt, batches):
    accs = []
    for x, y in batches:
        p = model(x)
        loss = crit(p, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        accs.append(crit.accuracy(p, y))
    return accs
