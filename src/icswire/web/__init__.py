"""The web client's built files (``static/``), which the server serves; its source is ``web/``."""
