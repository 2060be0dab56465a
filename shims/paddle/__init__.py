from paddle_compat import gc_paused

with gc_paused():
    from paddle_compat._export import populate

    populate(__name__, globals())
