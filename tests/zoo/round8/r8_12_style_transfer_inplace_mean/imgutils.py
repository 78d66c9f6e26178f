"""Image helpers for fast neural style training (VGG expects mean-subtracted input)."""
import torch


def preprocess_batch(batch):
    return batch * 255.0


def subtract_imagenet_mean_batch(batch):
    mean = batch.new_tensor([103.939, 116.779, 123.680]).view(1, 3, 1, 1)
    batch -= mean


def gram_matrix(y):
    b, ch, h, w = y.size()
    features = y.view(b, ch, w * h)
    return features.bmm(features.transpose(1, 2)) / (ch * h * w)
