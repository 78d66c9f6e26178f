def train_one_epoch(net, criterion, optimizer, loader):
    stats = []
    for feats, labels in loader:
        probs = net(feats)
        loss = criterion(probs, labels)
        stats.append(criterion.hit_rate(probs, labels))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return stats
