"""Builds the reasoning graph whose node features are the student's own hidden states."""
import torch


class GraphBatch:
    def __init__(self, x, adj, y):
        self.x = x
        self.adj = adj
        self.y = y


def node_embeddings(student, node_tokens):
    """Mean-pooled hidden state of the student for each node's text."""
    with torch.no_grad():
        hidden = student.encode(node_tokens)
    return hidden.mean(dim=1)


def build_graph_batch(student, node_tokens, adj, labels):
    x = node_embeddings(student, node_tokens)
    return GraphBatch(x, adj, labels)


def build_graph_batch_live(student, node_tokens, adj, labels):
    x = student.encode(node_tokens).mean(dim=1)
    return GraphBatch(x, adj, labels)
