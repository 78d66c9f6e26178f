"""Fixed-step RK4 integrator with terminal-event detection (torchdiffeq-style API)."""
import torch


def rk4_step(func, t, y, dt):
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt / 2 * k1)
    k3 = func(t + dt / 2, y + dt / 2 * k2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _eval_event(event_fn, t, y):
    # event values are only used to locate a sign change, so they are evaluated
    # without recording a graph to save memory
    with torch.no_grad():
        return event_fn(t, y)


def odeint_event(func, y0, t0, event_fn, dt=0.02, max_steps=2000):
    """Integrate dy/dt = func(t, y) from t0 until event_fn(t, y) changes sign.

    Returns the event time (a float) and the list of states up to the event.
    """
    t = float(t0)
    y = y0
    states = [y0]
    ev_prev = _eval_event(event_fn, t, y)
    for _ in range(max_steps):
        y_next = rk4_step(func, t, y, dt)
        ev = _eval_event(event_fn, t + dt, y_next)
        if torch.any(torch.sign(ev) != torch.sign(ev_prev)):
            frac = (ev_prev / (ev_prev - ev)).abs().clamp(0, 1).mean().item()
            return t + frac * dt, states
        t, y, ev_prev = t + dt, y_next, ev
        states.append(y)
    return t, states
