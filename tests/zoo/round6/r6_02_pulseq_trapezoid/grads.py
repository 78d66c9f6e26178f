"""expect: GL002 34
dynamic: confirm
source: https://github.com/MRsources/pulseq-zero/issues/20

Adapter layer of a differentiable MRI sequence builder: it turns a gradient
event (amplitude and timing, possibly 0-d tensors that require grad) into the
corner points of a trapezoid waveform. The corner amplitudes are assembled
with torch.tensor([...]), which reads the 0-d amplitude tensor as a plain
number and produces a fresh tensor without history, so any loss computed from
the waveform in main.py cannot reach the amplitude being optimised. The fix
in the issue is to torch.stack torch.as_tensor(...) values instead.
"""
import torch


class TrapezoidGradient:
    def __init__(self, channel, amplitude, rise_time, flat_time, fall_time):
        self.channel = channel
        self.amplitude = amplitude
        self.rise_time = rise_time
        self.flat_time = flat_time
        self.fall_time = fall_time


def make_trapezoid(channel, amplitude, rise_time=1e-4, flat_time=1e-3, fall_time=1e-4):
    return TrapezoidGradient(channel, amplitude, rise_time, flat_time, fall_time)


def corner_points(grad):
    t1 = grad.rise_time
    t2 = t1 + grad.flat_time
    t3 = t2 + grad.fall_time
    times = torch.tensor([0.0, t1, t2, t3])
    amps = torch.tensor([0, grad.amplitude, grad.amplitude, 0])
    return times, amps


def gradient_moment(grad):
    times, amps = corner_points(grad)
    # trapezoidal rule over the piecewise-linear waveform -> k-space moment
    return torch.sum(0.5 * (amps[1:] + amps[:-1]) * (times[1:] - times[:-1]))
