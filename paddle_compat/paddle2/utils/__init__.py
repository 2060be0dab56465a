"""paddle.utils and runtime facts: the download helper (download.py), paddle.hub (hub.py), paddle.version,
paddle.sysconfig, the paddle.utils helpers and the paddle.jit settings."""
