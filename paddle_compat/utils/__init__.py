"""paddle.utils pieces that are plain Python: the download helper (download.py) and paddle.hub (hub.py)."""
