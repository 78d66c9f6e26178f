def clip_bias_column(w, bound=1.0):
    """Keep the first input column (the bias feature) of a weight inside [-bound, bound]."""
    w[:, :1].clamp_(-bound, bound)
