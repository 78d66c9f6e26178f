import torch


def filter_shard_state(state, shard_size=None):
    for k, v in state.items():
        if shard_size is None:
            yield k, v
            continue
        if v is not None:
            v_split = []
            if isinstance(v, torch.Tensor):
                for v_chunk in torch.split(v, shard_size):
                    v_chunk = v_chunk.data.clone()
                    v_chunk.requires_grad = v.requires_grad
                    v_split.append(v_chunk)
            yield k, (v, v_split)


def shards(state, shard_size, eval_only=False):
    """Yield dicts of state chunks; after the caller has backpropagated each
    chunk's loss, push the accumulated chunk gradients into the real graph."""
    if eval_only:
        yield dict(filter_shard_state(state))
        return
    non_none = dict(filter_shard_state(state, shard_size))
    keys, values = zip(*((k, list(v_split)) for k, (_, v_split) in non_none.items()))
    for shard_tensors in zip(*values):
        yield dict(zip(keys, shard_tensors))

    variables = []
    for k, (v, v_split) in non_none.items():
        if isinstance(v, torch.Tensor) and state[k].requires_grad:
            variables.extend(zip(torch.split(state[k], shard_size),
                                 [v_chunk.grad for v_chunk in v_split]))
    inputs, grads = zip(*variables)
    torch.autograd.backward(inputs, grads)
