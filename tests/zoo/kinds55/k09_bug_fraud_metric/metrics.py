def flagged_count(scores, cutoff=0.5):
    """Number of rows whose fraud probability crosses the cutoff."""
    t = scores.data
    t.gt_(cutoff)
    return int(t.sum().item())
