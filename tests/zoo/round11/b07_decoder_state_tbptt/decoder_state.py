"""Recurrent decoder state carried between truncated-BPTT chunks."""


class DecoderState:
    def __init__(self, hidden, input_feed):
        self.hidden = hidden
        self.input_feed = input_feed

    @property
    def _all(self):
        return (self.hidden, self.input_feed)

    def update(self, hidden, input_feed):
        self.hidden = hidden
        self.input_feed = input_feed

    def detach(self):
        """Cut the history at the chunk boundary."""
        for h in self._all:
            h = h.detach()
